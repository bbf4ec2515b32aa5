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

/**
 * Replies matching `q`, newest run first, then by prompt, model and attempt. Walked run by run
 * (runs by `created_at`, each run's matches in its replies' index order, at most the page's
 * worth): a common word (half of a 100,000-reply run) no longer sorts every match of every run
 * for one page (338 ms against 40 ms on the pages bench's database), and a rare one is found in
 * each run through the GIN index.
 */
export async function searchReplies(db: Db, q: string, opts: { limit: number; offset: number }): Promise<{ hits: ReplyHit[]; total: number }> {
  const query = Prisma.sql`websearch_to_tsquery('simple', ${q})`;
  const matches = Prisma.sql`to_tsvector('simple', r.content) @@ ${query}`;
  const [hits, count] = await Promise.all([
    // an author's draft (try-it) run is seen only by its author and maintainers: never in search
    db.$queryRaw<ReplyHit[]>`
      SELECT ru.id AS "runId", ru.created_at AS "runCreatedAt", b.id AS "blueprintId", b.title AS "blueprintTitle",
             m.prompt_key AS "promptKey", m.model_id AS "modelId",
             ts_headline('simple', m.content, ${query}, ${HEADLINE}) AS snippet
      FROM runs ru
      JOIN blueprints b ON b.id = ru.blueprint_id
      CROSS JOIN LATERAL (
        SELECT r.prompt_key, r.model_id, r.system_index, r.temperature_index, r.attempt, r.content
        FROM replies r
        WHERE r.run_id = ru.id AND ${matches} AND ${notSealed('ru.version_id', 'r.prompt_key')}
        ORDER BY r.prompt_key, r.model_id, r.system_index, r.temperature_index, r.attempt
        LIMIT ${opts.offset + opts.limit}
      ) m
      WHERE NOT ru.draft
      ORDER BY ru.created_at DESC, ru.id, m.prompt_key, m.model_id, m.system_index, m.temperature_index, m.attempt
      OFFSET ${opts.offset} LIMIT ${opts.limit}`,
    db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM (
        SELECT 1 FROM replies r JOIN runs ru ON ru.id = r.run_id
        WHERE ${matches} AND NOT ru.draft AND ${notSealed('ru.version_id', 'r.prompt_key')}
        LIMIT ${COUNT_CAP + 1}) x`,
  ]);
  const redact = storedTextRedactor();
  return { hits: hits.map((h) => ({ ...h, snippet: redactSnippet(h.snippet, redact) })), total: count[0]?.n ?? 0 };
}
