/**
 * Writes that create a row named by a natural key (a source's key, a blueprint's id, a
 * version's content hash) race when two processes store the same thing at once: both see
 * no row, both insert, one fails on the unique index. Retrying the whole write then finds
 * the row the other made, so the write is idempotent under concurrency. PostgreSQL aborts a
 * transaction at its first error, which is why the whole unit is retried, not one statement.
 */
import { Prisma } from '@/generated/prisma/client';

/** Prisma's P2002, or PostgreSQL's 23505 when it reaches us through the driver adapter unmapped. */
export function isUniqueViolation(e: unknown): boolean {
  if (e instanceof Prisma.PrismaClientKnownRequestError) return e.code === 'P2002';
  const cause = (e as { cause?: { originalCode?: string; code?: string } } | null)?.cause;
  return cause?.originalCode === '23505' || cause?.code === '23505' || (e as { code?: string } | null)?.code === '23505';
}

/** Runs `write`, again (up to `attempts` times in all) when another writer won a unique-key race. */
export async function retryOnUniqueViolation<T>(write: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (e) {
      if (attempt >= attempts || !isUniqueViolation(e)) throw e;
    }
  }
}
