/**
 * Search results: the query as understood, hits with their matched words marked (the
 * database's snippet markers become segments, never HTML), and paging.
 */
import { z } from 'zod';
import { COUNT_CAP, MATCH_END, MATCH_START } from '@/lib/core';
import type { PromptHit, ReplyHit } from '@/lib/server/db/queries/search';
import { formatCount, formatDate, modelShortName } from './format';
import { href } from './urls';

export const SearchParamsSchema = z.object({
  q: z
    .string()
    .transform((s) => s.replace(/\s+/g, ' ').trim().slice(0, 200))
    .catch(''),
  kind: z.enum(['replies', 'prompts']).catch('replies'),
  page: z.coerce.number().int().min(1).max(50).catch(1),
});
export type SearchParams = z.infer<typeof SearchParamsSchema>;

export const SEARCH_PAGE_SIZE = 20;

export interface Segment {
  text: string;
  match: boolean;
}

/** Splits a snippet with ⟦match⟧ markers into plain and matched segments. */
export function highlightSegments(snippet: string): Segment[] {
  const out: Segment[] = [];
  let rest = snippet;
  while (rest.length > 0) {
    const start = rest.indexOf(MATCH_START);
    if (start < 0) {
      out.push({ text: rest, match: false });
      break;
    }
    if (start > 0) out.push({ text: rest.slice(0, start), match: false });
    const end = rest.indexOf(MATCH_END, start + 1);
    if (end < 0) {
      out.push({ text: rest.slice(start + 1), match: false });
      break;
    }
    out.push({ text: rest.slice(start + 1, end), match: true });
    rest = rest.slice(end + 1);
  }
  return out.filter((s) => s.text.length > 0);
}

export interface SearchHitView {
  title: string;
  subtitle: string;
  href: string;
  segments: Segment[];
}

export interface SearchPageView {
  q: string;
  kind: SearchParams['kind'];
  tabs: { label: string; href: string; current: boolean }[];
  countLabel: string;
  hits: SearchHitView[];
  previousHref: string | null;
  nextHref: string | null;
}

function countLabel(total: number, noun: string): string {
  if (total === 0) return `No ${noun} match.`;
  return `${total > COUNT_CAP ? `${formatCount(COUNT_CAP)}+` : formatCount(total)} ${total === 1 ? noun.replace(/s$/, '') : noun}`;
}

export function searchPageView(params: SearchParams, result: { hits: (PromptHit | ReplyHit)[]; total: number }): SearchPageView {
  const { q, kind, page } = params;
  const hits: SearchHitView[] =
    kind === 'prompts'
      ? (result.hits as PromptHit[]).map((h) => ({
          title: `${h.blueprintTitle} › ${h.promptKey}`,
          subtitle: h.runId ? 'Prompt: open the latest run’s results' : 'Prompt (no completed run yet)',
          href: h.runId ? href.prompt(h.runId, h.promptKey) : href.blueprint(h.blueprintId),
          segments: highlightSegments(h.snippet),
        }))
      : (result.hits as ReplyHit[]).map((h) => ({
          title: `${modelShortName(h.modelId)} on ${h.blueprintTitle} › ${h.promptKey}`,
          subtitle: `Reply in the run of ${formatDate(h.runCreatedAt)} (${h.modelId})`,
          href: href.cell(h.runId, h.promptKey, h.modelId),
          segments: highlightSegments(h.snippet),
        }));
  const shown = Math.min(result.total, COUNT_CAP);
  return {
    q,
    kind,
    tabs: [
      { label: 'Replies', href: href.search(q, { kind: 'replies' }), current: kind === 'replies' },
      { label: 'Prompts', href: href.search(q, { kind: 'prompts' }), current: kind === 'prompts' },
    ],
    countLabel: countLabel(result.total, kind === 'prompts' ? 'prompts' : 'replies'),
    hits,
    previousHref: page > 1 ? href.search(q, { kind, page: page - 1 }) : null,
    nextHref: page * SEARCH_PAGE_SIZE < shown && page < 50 ? href.search(q, { kind, page: page + 1 }) : null,
  };
}
