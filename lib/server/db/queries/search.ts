/**
 * Full-text search (PostgreSQL, 'simple' configuration) over prompts of the live blueprints'
 * latest versions and over replies. The match expressions are exactly those of the GIN
 * indexes of migration 20261130010000_search, so the planner uses them. Sealed prompts and
 * their replies never match. Snippets come from ts_headline with private markers that the
 * view turns into <mark> elements: the database never produces HTML for the page.
 */
import { Prisma } from '@/generated/prisma/client';
import { COUNT_CAP, MATCH_END, MATCH_START } from '@/lib/core';
import type { Db } from '../client';
import { notSealed, SEALED_SPLIT } from './sealed';
import { storedTextRedactor } from './redact-stored';
import type { Redactor } from '../../secret-redactor';

const HEADLINE = `StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=28, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "`;

/**
 * A snippet with known secrets redacted (redact-stored.ts). The match markers may split a
 * secret (when it is the search term), so a snippet that holds one once they are removed is
 * shown redacted, without highlights.
 */
function redactSnippet(snippet: string, redact: Redactor | null): string {
  if (!redact) return snippet;
  const plain = snippet.split(MATCH_START).join('').split(MATCH_END).join('');
  const redacted = redact(plain);
  return redacted === plain ? redact(snippet) : redacted;
}

export interface PromptHit {
  blueprintId: string;
  blueprintTitle: string;
  promptKey: string;
  snippet: string;
  /** The latest completed run of this version, to open the prompt's results; null when none. */
  runId: string | null;
}

export interface ReplyHit {
  runId: string;
  runCreatedAt: Date;
  blueprintId: string;
  blueprintTitle: string;
  promptKey: string;
  modelId: string;
  snippet: string;
}

export async function searchPrompts(db: Db, q: string, opts: { limit: number; offset: number }): Promise<{ hits: PromptHit[]; total: number }> {
  const query = Prisma.sql`websearch_to_tsquery('simple', ${q})`;
  const match = Prisma.sql`jsonb_to_tsvector('simple', vp.messages, '["string"]') @@ ${query}`;
  const [hits, count] = await Promise.all([
    db.$queryRaw<PromptHit[]>`
      SELECT b.id AS "blueprintId", b.title AS "blueprintTitle", vp.prompt_key AS "promptKey",
             ts_headline('simple', coalesce((SELECT string_agg(m->>'content', ' ') FROM jsonb_array_elements(vp.messages) m), ''), ${query}, ${HEADLINE}) AS snippet,
             (SELECT ru.id FROM runs ru WHERE ru.version_id = vp.version_id AND ru.status = 'completed' AND NOT ru.draft ORDER BY ru.created_at DESC LIMIT 1) AS "runId"
      FROM version_prompts vp
      JOIN blueprints b ON b.latest_version_id = vp.version_id AND b.removed_at IS NULL
      WHERE ${match} AND vp.split <> ${SEALED_SPLIT}
      ORDER BY ts_rank(jsonb_to_tsvector('simple', vp.messages, '["string"]'), ${query}) DESC, b.title, vp.position
      OFFSET ${opts.offset} LIMIT ${opts.limit}`,
    db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM (
        SELECT 1 FROM version_prompts vp
        JOIN blueprints b ON b.latest_version_id = vp.version_id AND b.removed_at IS NULL
        WHERE ${match} AND vp.split <> ${SEALED_SPLIT} LIMIT ${COUNT_CAP + 1}) x`,
  ]);
  return { hits, total: count[0]?.n ?? 0 };
}

export async function searchReplies(db: Db, q: string, opts: { limit: number; offset: number }): Promise<{ hits: ReplyHit[]; total: number }> {
  const query = Prisma.sql`websearch_to_tsquery('simple', ${q})`;
  // an author's draft (try-it) run is seen only by its author and maintainers: never in search
  const where = Prisma.sql`to_tsvector('simple', r.content) @@ ${query} AND NOT ru.draft AND ${notSealed('ru.version_id', 'r.prompt_key')}`;
  const [hits, count] = await Promise.all([
    // newest runs first: the latest evidence is what a reader usually wants
    db.$queryRaw<ReplyHit[]>`
      SELECT page.run_id AS "runId", page.created_at AS "runCreatedAt", b.id AS "blueprintId", b.title AS "blueprintTitle",
             page.prompt_key AS "promptKey", page.model_id AS "modelId",
             ts_headline('simple', page.content, ${query}, ${HEADLINE}) AS snippet
      FROM (
        SELECT r.run_id, r.prompt_key, r.model_id, r.content, ru.created_at, ru.blueprint_id
        FROM replies r JOIN runs ru ON ru.id = r.run_id
        WHERE ${where}
        ORDER BY ru.created_at DESC, r.run_id, r.prompt_key, r.model_id, r.attempt
        OFFSET ${opts.offset} LIMIT ${opts.limit}
      ) page
      JOIN blueprints b ON b.id = page.blueprint_id
      ORDER BY page.created_at DESC, page.run_id, page.prompt_key, page.model_id`,
    db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM (SELECT 1 FROM replies r JOIN runs ru ON ru.id = r.run_id WHERE ${where} LIMIT ${COUNT_CAP + 1}) x`,
  ]);
  const redact = storedTextRedactor();
  return { hits: hits.map((h) => ({ ...h, snippet: redactSnippet(h.snippet, redact) })), total: count[0]?.n ?? 0 };
}
