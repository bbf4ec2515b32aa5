/**
 * A JSON value for a raw statement, written as the exact text of its numbers. Prisma's Json (and
 * Float) inputs keep 16 significant digits (prisma/prisma #3918, #11096): 0.048749999999999995
 * came back 0.04874999999999999, and a stored figure must be the one a page would compute from the
 * rows it summarises. PostgreSQL's jsonb keeps a number's decimal text as written, so a figure
 * parsed back with JSON.parse is the same double. The value is parsed with its zod schema first,
 * the one its readers parse it with.
 */
import type { z } from 'zod';
import { Prisma } from '@/generated/prisma/client';

export function exactJson<S extends z.ZodType>(schema: S, value: z.input<S>): Prisma.Sql {
  return Prisma.sql`${JSON.stringify(schema.parse(value))}::jsonb`;
}
