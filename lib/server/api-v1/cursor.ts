/**
 * Opaque page cursors: what a list needs to continue (the last item's sort key, or how many items
 * were read) as base64url JSON, checked with a zod schema on the way back in. Clients must not
 * build or read them: the shape may change, the promise is only that `next_cursor` continues a
 * walk. A cursor names its list, so one from another list is refused rather than misread.
 */
import { z } from 'zod';
import { BadRequestError } from '../http/errors';

export function encodeCursor<T>(list: string, value: T): string {
  return Buffer.from(JSON.stringify({ l: list, v: value }), 'utf8').toString('base64url');
}

/** The cursor's value for `list`, or undefined for no cursor; a cursor that is not one of ours is a 400. */
export function decodeCursor<T>(list: string, schema: z.ZodType<T>, cursor: string | undefined): T | undefined {
  if (cursor === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    raw = null;
  }
  const parsed = z.object({ l: z.literal(list), v: schema }).safeParse(raw);
  if (!parsed.success) throw new BadRequestError('This `cursor` is not one this list gave out: pass the `next_cursor` of the previous page unchanged, or leave it out to start again.');
  return parsed.data.v;
}

/** Blueprints are listed by title, then id: the next page starts after the last item's pair. */
export const BlueprintCursor = z.object({ title: z.string(), id: z.string() });

/** A run's prompts are listed by position: the next page starts after `offset` prompts. */
export const PromptCursor = z.object({ offset: z.number().int().nonnegative() });

/** Drift checks are listed newest change first: the next page starts after `offset` checks. */
export const DriftCursor = z.object({ offset: z.number().int().nonnegative() });
