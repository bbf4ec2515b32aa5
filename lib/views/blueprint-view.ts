/**
 * View model of the blueprint page. Sealed (`test` split) prompts never reach it (the query
 * leaves them out); they are only counted.
 */
import type { BlueprintDetail } from '@/lib/server/db/queries/blueprint-detail';
import { plural, shortSha } from './format';
import { paginationView, type PaginationView } from './pagination';
import { href } from './urls';

export interface PromptRowView {
  key: string;
  /** The prompt's results in the latest completed run, when there is one. */
  href: string | null;
  firstUserText: string;
  turns: number;
  pointCount: number;
  weightLabel: string | null;
}

export interface BlueprintPageView {
  id: string;
  title: string;
  /** Markdown, rendered sanitised. */
  description: string | null;
  tags: { tag: string; href: string }[];
  authorLabel: string | null;
  authorHref: string | null;
  sourceLink: string | null;
  sourceLabel: string;
  rawHref: string;
  errors: { line: number; col: number; message: string }[];
  prompts: PromptRowView[];
  promptPagination: PaginationView;
  sealedCount: number;
  sealedNote: string | null;
  removed: boolean;
}

function authorOf(author: unknown): { name: string | null; url: string | null } {
  if (typeof author === 'string') return { name: author, url: null };
  if (author && typeof author === 'object' && 'name' in author && typeof author.name === 'string') {
    const url = 'url' in author && typeof author.url === 'string' && /^https?:\/\//.test(author.url) ? author.url : null;
    return { name: author.name, url };
  }
  return { name: null, url: null };
}

export function blueprintPage(d: BlueprintDetail, opts: { latestRunId?: string | null } = {}): BlueprintPageView {
  const v = d.latestVersion;
  const { source } = d;
  const commit = v?.sourceCommit ?? null;
  const sourceLink =
    source.kind === 'github' && source.owner && source.repo ? `https://github.com/${source.owner}/${source.repo}/blob/${commit ?? source.branch ?? 'main'}/${d.path}` : null;
  const author = authorOf(d.author);
  return {
    id: d.id,
    title: d.title,
    description: d.description,
    tags: [...d.tags].sort((a, b) => a.localeCompare(b)).map((tag) => ({ tag, href: href.home(tag) })),
    authorLabel: author.name,
    authorHref: author.url,
    sourceLink,
    sourceLabel: commit ? `${d.path} @ ${shortSha(commit)}` : d.path,
    rawHref: href.blueprintSource(d.id),
    errors: Array.isArray(v?.validationErrors) ? (v.validationErrors as { line: number; col: number; message: string }[]) : [],
    prompts: (v?.prompts ?? []).map((p) => {
      const messages = Array.isArray(p.messages) ? (p.messages as { role: string; content: string | null }[]) : [];
      return {
        key: p.promptKey,
        href: opts.latestRunId ? href.prompt(opts.latestRunId, p.promptKey) : null,
        firstUserText: messages.find((m) => m.role === 'user')?.content ?? '',
        turns: messages.length,
        pointCount: p.pointCount,
        weightLabel: p.weight === 1 ? null : `weight ${p.weight}`,
      };
    }),
    promptPagination: paginationView(d.promptPage, d.promptPageSize, d.visibleCount, 'prompts', (page) => `${href.blueprint(d.id, { page })}#prompts-h`),
    sealedCount: d.sealedCount,
    sealedNote: d.sealedCount > 0 ? `${plural(d.sealedCount, 'sealed test prompt')} ${d.sealedCount === 1 ? 'is' : 'are'} scored but not shown.` : null,
    removed: d.removedAt !== null,
  };
}
