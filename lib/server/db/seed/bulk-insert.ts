/**
 * Multi-row INSERTs through `unnest` of one typed array per column: one statement per chunk
 * of a few thousand rows, so 100,000 verdicts are written in seconds on PostgreSQL and
 * PGlite alike (COPY would need a driver extension; this needs only the Prisma client).
 */
import type { Db } from '../client';

/** A column and the SQL type of its array parameter (`text`, `int`, `double precision`, `jsonb`, `boolean`, `timestamp(3)`). */
export interface BulkColumn {
  name: string;
  type: string;
  /** An expression applied to the unnested value, e.g. `::verdict_status` for an enum sent as text. */
  cast?: string;
}

export async function bulkInsert(db: Db, table: string, columns: readonly BulkColumn[], rows: readonly unknown[][], chunk = 2000): Promise<number> {
  const names = columns.map((c) => `"${c.name}"`).join(', ');
  const params = columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ');
  const aliases = columns.map((_c, i) => `c${i}`);
  const select = columns.map((c, i) => `${aliases[i]}${c.cast ?? ''}`).join(', ');
  const sql = `INSERT INTO "${table}" (${names}) SELECT ${select} FROM unnest(${params}) AS t(${aliases.join(', ')})`;
  let written = 0;
  for (let start = 0; start < rows.length; start += chunk) {
    const slice = rows.slice(start, start + chunk);
    const arrays = columns.map((_c, i) => slice.map((r) => r[i] ?? null));
    written += await db.$executeRawUnsafe(sql, ...arrays);
  }
  return written;
}
