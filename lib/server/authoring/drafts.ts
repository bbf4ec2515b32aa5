/**
 * A signed-in author's drafts (table author_drafts): one per file name, saved whole on every
 * autosave. The zod schemas here are the one shape the API routes and the editor exchange.
 * A reader who is signed in may keep drafts too (writing a blueprint needs no role); the admin
 * token has no user and keeps none.
 */
import { z } from 'zod';
import { BLUEPRINT_LIMITS } from '@/lib/core';
import type { Db } from '../db/client';
import { BadRequestError, NotFoundError, UnauthorizedError } from '../http/errors';
import type { Principal } from '../auth/principal';
import { enforceRateLimit, type RateLimit } from '../auth/rate-limit';
import { storableText } from '../db/storable-text';

/** Autosave is debounced to about one save per second of typing; this leaves room for bursts. */
export const DRAFT_WRITE_LIMIT: RateLimit = { limit: 120, windowSeconds: 60 };
export const MAX_DRAFTS_PER_AUTHOR = 50;
/** A draft may be as large as a blueprint file may be (limits.ts). */
export const MAX_DRAFT_BYTES = BLUEPRINT_LIMITS.maxFileBytes;

export const DraftNameSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\w][\w./-]*\.ya?ml$/, 'a draft name is a file path ending in .yml or .yaml (letters, digits, _ . / -), e.g. blueprints/my-blueprint.yml')
  .refine((n) => !n.split('/').includes('..'), 'a draft name cannot contain ".."');

export const DraftBodySchema = z.object({
  name: DraftNameSchema,
  yaml: z.string().refine((t) => new TextEncoder().encode(t).length <= MAX_DRAFT_BYTES, `a draft is at most ${MAX_DRAFT_BYTES.toLocaleString('en-US')} bytes (the blueprint file limit)`),
});
export type DraftBody = z.infer<typeof DraftBodySchema>;

export const DraftSummarySchema = z.object({ name: z.string(), updatedAt: z.iso.datetime(), bytes: z.number().int() });
export const DraftSchema = z.object({ name: z.string(), yaml: z.string(), updatedAt: z.iso.datetime() });
export type DraftSummary = z.infer<typeof DraftSummarySchema>;
export type Draft = z.infer<typeof DraftSchema>;

/** The signed-in user a draft belongs to; the admin token or nobody gets 401. */
export function draftOwner(p: Principal | null): string {
  if (p?.kind !== 'user') throw new UnauthorizedError('Sign in with GitHub to keep drafts in your account (until then they stay in this browser).');
  return p.user.id;
}

export async function listDrafts(db: Db, userId: string): Promise<DraftSummary[]> {
  const rows = await db.$queryRaw<{ name: string; updated_at: Date; bytes: number }[]>`
    SELECT name, updated_at, octet_length(yaml)::int AS bytes FROM author_drafts WHERE user_id = ${userId} ORDER BY updated_at DESC, name`;
  return rows.map((r) => ({ name: r.name, updatedAt: r.updated_at.toISOString(), bytes: Number(r.bytes) }));
}

export async function getDraft(db: Db, userId: string, name: string): Promise<Draft> {
  const d = await db.authorDraft.findUnique({ where: { userId_name: { userId, name } }, select: { name: true, yaml: true, updatedAt: true } });
  if (!d) throw new NotFoundError(`You have no draft named ${name}.`);
  return { name: d.name, yaml: d.yaml, updatedAt: d.updatedAt.toISOString() };
}

/** `now` places the write in its rate-limit window (a test holds it still: windows are fixed minutes). */
export async function saveDraft(db: Db, userId: string, body: DraftBody, now = new Date()): Promise<Draft> {
  await enforceRateLimit(db, `drafts:${userId}`, DRAFT_WRITE_LIMIT, now);
  const key = { userId_name: { userId, name: body.name } };
  const existing = await db.authorDraft.findUnique({ where: key, select: { id: true } });
  if (!existing && (await db.authorDraft.count({ where: { userId } })) >= MAX_DRAFTS_PER_AUTHOR) {
    throw new BadRequestError(`You have ${MAX_DRAFTS_PER_AUTHOR} drafts, the most an author may keep: delete one you no longer need, or save this one under the name of an old one.`);
  }
  // a draft is whatever was typed or pasted: a NUL or half a surrogate pair is kept visible (␀, U+FFFD) rather than refused by PostgreSQL as a 500
  const yaml = storableText(body.yaml);
  const d = await db.authorDraft.upsert({ where: key, create: { userId, name: body.name, yaml }, update: { yaml }, select: { name: true, yaml: true, updatedAt: true } });
  return { name: d.name, yaml: d.yaml, updatedAt: d.updatedAt.toISOString() };
}

export async function deleteDraft(db: Db, userId: string, name: string): Promise<void> {
  await enforceRateLimit(db, `drafts:${userId}`, DRAFT_WRITE_LIMIT);
  const r = await db.authorDraft.deleteMany({ where: { userId, name } });
  if (r.count === 0) throw new NotFoundError(`You have no draft named ${name}.`);
}
