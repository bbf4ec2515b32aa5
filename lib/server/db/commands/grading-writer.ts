/**
 * Group commit for verdicts (docs/runs.md, "Database writes of the hot path are group-committed"):
 * concurrent steps that finish grading a reply hand their rows here; whatever accumulated while the
 * previous batch was written goes in ONE transaction (verdicts, attempt scores and the runs'
 * counters), and each caller resumes only once its rows are committed. So batching costs no
 * durability: a step never reports done before its verdicts are stored, and under load many replies
 * share one round trip. ON CONFLICT keeps a retried step from inserting or counting anything twice.
 *
 * Two paths, the same rows:
 *  - bulk (a batch of COPY_MIN_ROWS verdicts or more, on a PostgreSQL server): the rows are
 *    streamed with `BEGIN; COPY … FROM STDIN` straight into `verdicts`; the attempt scores,
 *    the counters and the COMMIT follow in one query. A retried step's rows fail the COPY on
 *    the unique key; then (in a new transaction) they are COPYed into a per-connection staging
 *    table and moved by one `INSERT … SELECT … ON CONFLICT DO NOTHING`, so nothing is stored or
 *    counted twice.
 *  - small batches, and PGlite (its socket server does not survive COPY FROM STDIN: the wasm
 *    backend exits), insert from arrays: one parameter per column (`unnest`), not one per value.
 */
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { from as copyFrom } from 'pg-copy-streams';
import type pg from 'pg';
import { Prisma } from '@/generated/prisma/client';
import { poolOf, type Db } from '../client';
import { GroupCommit, perClient } from '../group-commit';
import { preparedStatement } from '../prepared';
import { storable } from '../storable-text';
import { unstorableOffset } from '@/lib/core';

export interface AttemptRow {
  score: number | null;
  errorCount: number;
  gateFailed: boolean;
  noApplicable: boolean;
  /** soev's per-attempt pass, for a prompt with criteria; null (or absent) otherwise. */
  passed?: boolean | null;
}

export interface Grading {
  runId: string;
  reply: { id: string; promptKey: string; modelId: string };
  rows: Prisma.VerdictCreateManyInput[];
  attempt: AttemptRow;
}

/** Verdicts per batch at most (a batch is one transaction; its rows are held in memory once). */
const MAX_ROWS = 20_000;
/** From this many verdicts in a batch, COPY beats arrays (measured: bench/pipeline.bench.ts). */
export const COPY_MIN_ROWS = 200;

const json = (v: unknown) => (v === null || v === undefined || v === Prisma.DbNull ? null : JSON.stringify(v));

/** The verdict columns in order, with each one's array type (unnest path) and its value. */
const COLUMNS: readonly [string, string, (r: Prisma.VerdictCreateManyInput) => unknown][] = [
  ['id', 'text', () => randomUUID()],
  ['run_id', 'text', (r) => r.runId],
  ['reply_id', 'text', (r) => r.replyId],
  ['prompt_key', 'text', (r) => r.promptKey],
  ['model_id', 'text', (r) => r.modelId],
  ['point_index', 'int', (r) => r.pointIndex],
  ['status', 'verdict_status', (r) => r.status],
  ['score', 'float8', (r) => r.score ?? null],
  ['kind', 'text', (r) => r.kind],
  ['point_text', 'text', (r) => r.pointText],
  ['fn', 'text', (r) => r.fn ?? null],
  ['args', 'jsonb', (r) => json(r.args)],
  ['weight', 'float8', (r) => r.weight],
  ['gate', 'boolean', (r) => r.gate ?? false],
  ['path', 'text', (r) => r.path ?? null],
  ['source', 'text', (r) => r.source ?? 'should'],
  ['distribution', 'jsonb', (r) => json(r.distribution)],
  ['method', 'text', (r) => r.method ?? null],
  ['detail', 'text', (r) => r.detail ?? null],
  ['reasoning', 'text', (r) => r.reasoning ?? null],
  ['judges', 'jsonb', (r) => json(r.judges)],
  ['spread', 'float8', (r) => r.spread ?? null],
  ['disagreement', 'boolean', (r) => r.disagreement ?? false],
  ['regex_engine', 'text', (r) => r.regexEngine ?? null],
  ['data', 'jsonb', (r) => json(r.data)],
];
const NAMES = COLUMNS.map(([n]) => n).join(', ');

const ATTEMPT_COLUMNS = 'id, run_id, reply_id, prompt_key, model_id, score, error_count, gate_failed, no_applicable, passed';

/** The attempt scores and the counters' row, after the verdicts CTE `v` (same statement, same commit); their parameters from `first` on. */
function attemptsAndCountersSql(first: number): string {
  const p = (i: number) => `$${first + i}`;
  return `a AS (
       INSERT INTO attempt_scores (${ATTEMPT_COLUMNS})
       SELECT * FROM unnest(${p(0)}::text[], ${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[], ${p(4)}::text[], ${p(5)}::float8[], ${p(6)}::int[], ${p(7)}::boolean[], ${p(8)}::boolean[], ${p(9)}::boolean[])
       ON CONFLICT (run_id, reply_id) DO NOTHING RETURNING 1
     ),
     x AS (SELECT run_id, count(*)::int AS n, (count(*) FILTER (WHERE status = 'error'))::int AS e FROM v GROUP BY run_id)
     -- appended, not added to the run's row (lib/server/db/verdict-counts.ts): no run row is locked
     INSERT INTO run_verdict_counts (run_id, done, errors) SELECT run_id, n, e FROM x WHERE (SELECT count(*) FROM a) >= 0`;
}

/** The parameters of attemptsAndCountersSql: one array per attempt-score column. */
function attemptsAndCountersParams(items: readonly Grading[]): unknown[] {
  const col = <T,>(f: (g: Grading) => T) => items.map(f);
  return [
    col(() => randomUUID()), col((g) => g.runId), col((g) => g.reply.id), col((g) => g.reply.promptKey), col((g) => g.reply.modelId),
    col((g) => g.attempt.score), col((g) => g.attempt.errorCount), col((g) => g.attempt.gateFailed), col((g) => g.attempt.noApplicable), col((g) => g.attempt.passed ?? null),
  ];
}

/**
 * The same as attemptsAndCountersSql for the COPY path, where every row is inserted or the COPY
 * fails: the counters are counted here, and the statements are written out with their values
 * (escaped by the driver) so that the COMMIT can follow in the same simple query.
 */
function attemptsAndCountersLiteral(client: pg.PoolClient, items: readonly Grading[], rows: readonly Prisma.VerdictCreateManyInput[]): string {
  const text = (s: string) => client.escapeLiteral(s);
  const num = (n: number | null) => (n === null ? 'NULL' : Number.isFinite(n) ? String(n) : `'${n}'`);
  const bool = (b: boolean | null) => (b === null ? 'NULL' : b ? 'true' : 'false');
  const attempts = items.map(
    (g) => `(${text(randomUUID())}, ${text(g.runId)}, ${text(g.reply.id)}, ${text(g.reply.promptKey)}, ${text(g.reply.modelId)}, ${num(g.attempt.score)}::float8, ${Math.trunc(g.attempt.errorCount)}, ${bool(g.attempt.gateFailed)}, ${bool(g.attempt.noApplicable)}, ${bool(g.attempt.passed ?? null)}::boolean)`,
  );
  const counts = new Map<string, { n: number; e: number }>();
  for (const r of rows) {
    const c = counts.get(r.runId) ?? { n: 0, e: 0 };
    c.n++;
    if (r.status === 'error') c.e++;
    counts.set(r.runId, c);
  }
  // One row a run, appended (lib/server/db/verdict-counts.ts): no run row is locked, so batches in flight never wait on each other.
  const perRun = [...counts].map(([run, c]) => `(${text(run)}, ${c.n}, ${c.e})`);
  return `INSERT INTO attempt_scores (${ATTEMPT_COLUMNS})
     VALUES ${attempts.join(', ')} ON CONFLICT (run_id, reply_id) DO NOTHING;
     INSERT INTO run_verdict_counts (run_id, done, errors) VALUES ${perRun.join(', ')}`;
}

/** COPY text format: `\N` is null; backslash, tab, newline and carriage return are escaped. */
function copyField(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v !== 'string') return String(v); // a number or a boolean: nothing to escape
  return NEEDS_ESCAPE.test(v) ? v.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r') : v;
}
const NEEDS_ESCAPE = /[\\\t\n\r]/;

/** One row as a line of COPY text. */
function copyRow(r: Prisma.VerdictCreateManyInput): string {
  let line = copyField(COLUMNS[0]![2](r));
  for (let i = 1; i < COLUMNS.length; i++) line += `\t${copyField(COLUMNS[i]![2](r))}`;
  return `${line}\n`;
}

/**
 * What JSON.stringify writes for NUL and a lone surrogate (`\u0000`, `\udXXX`), which jsonb
 * refuses. A raw NUL or lone surrogate in a text field is left as it is, and unstorableOffset finds it.
 */
const JSON_REFUSED = /\\u(?:0000|[dD][89a-fA-F])/;

/**
 * The rows as COPY text, in chunks of about 64 KiB. Every row must be `storable` (NUL and lone
 * surrogates escaped), but walking each row's strings cost more than the COPY of it, and almost
 * no row needs it. So a chunk is built from the rows as they are and scanned once, natively. A
 * chunk with nothing PostgreSQL refuses is exactly what `storable` rows would have given. Any
 * other chunk is built again from `storable` rows; a false alarm (a reply quoting `\u0000`) only
 * costs that rebuild. Fields never touch in a chunk (a tab or newline is always between them), so
 * a lone surrogate cannot pair with its neighbour's first character.
 */
function* copyLines(rows: readonly Prisma.VerdictCreateManyInput[]): Generator<string> {
  let chunk = '';
  let from = 0;
  for (let i = 0; i < rows.length; i++) {
    chunk += copyRow(rows[i]!);
    if (chunk.length > 64 * 1024 || i === rows.length - 1) {
      yield unstorableOffset(chunk) < 0 && !JSON_REFUSED.test(chunk) ? chunk : rows.slice(from, i + 1).map((r) => copyRow(storable(r))).join('');
      chunk = '';
      from = i + 1;
    }
  }
}

/** `COPY … FROM STDIN` of the rows into a table; `begin`: BEGIN in the same query (a round trip less). */
const copyInto = (client: pg.PoolClient, table: string, rows: readonly Prisma.VerdictCreateManyInput[], begin = false) =>
  pipeline(Readable.from(copyLines(rows)), client.query(copyFrom(`${begin ? 'BEGIN; ' : ''}COPY ${table} (${NAMES}) FROM STDIN`)));

async function writeByCopy(client: pg.PoolClient, items: readonly Grading[], rows: Prisma.VerdictCreateManyInput[]): Promise<void> {
  try {
    // The common case, a batch none of whose rows is stored yet: COPY straight into `verdicts`,
    // the counters from the rows themselves (a staging table and INSERT … SELECT wrote every row
    // twice: 0.40 of a plain COPY). Then the attempt scores, the counters and the COMMIT in one
    // round trip: two round trips a batch. A failed statement skips the rest of its query, and
    // the transaction is rolled back below.
    try {
      await copyInto(client, 'verdicts', rows, true);
    } catch (e) {
      if ((e as { code?: string }).code !== '23505') throw e;
      await client.query('ROLLBACK');
      return await writeByStaging(client, items, rows);
    }
    await client.query(`${attemptsAndCountersLiteral(client, items, rows)}; COMMIT`);
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  }
}

/**
 * A retried step's rows made the COPY fail on the unique key (the rare path): they go through a
 * per-connection staging table (emptied at every commit, so writers on other connections never
 * share it) and one INSERT … ON CONFLICT DO NOTHING, which counts only what it inserted.
 */
async function writeByStaging(client: pg.PoolClient, items: readonly Grading[], rows: Prisma.VerdictCreateManyInput[]): Promise<void> {
  await client.query('BEGIN; CREATE TEMP TABLE IF NOT EXISTS verdicts_staging (LIKE verdicts INCLUDING DEFAULTS) ON COMMIT DELETE ROWS');
  await copyInto(client, 'verdicts_staging', rows);
  await client.query(
    `WITH v AS (INSERT INTO verdicts (${NAMES}) SELECT ${NAMES} FROM verdicts_staging ON CONFLICT (run_id, reply_id, point_index) DO NOTHING RETURNING run_id, status),
     ${attemptsAndCountersSql(1)}`,
    attemptsAndCountersParams(items),
  );
  await client.query('COMMIT');
}

const INSERT_VERDICTS = preparedStatement(
  'insert-verdicts',
  `WITH v AS (
     INSERT INTO verdicts (${NAMES})
     SELECT ${COLUMNS.map(([n, type]) => (type === 'jsonb' ? `${n}::jsonb` : type === 'verdict_status' ? `${n}::verdict_status` : n)).join(', ')}
     FROM unnest(${COLUMNS.map(([, type], i) => `$${i + 1}::${type === 'jsonb' || type === 'verdict_status' ? 'text' : type}[]`).join(', ')}) AS x(${NAMES})
     ON CONFLICT (run_id, reply_id, point_index) DO NOTHING RETURNING run_id, status
   ),
   ${attemptsAndCountersSql(COLUMNS.length + 1)}`,
);

async function writeByArrays(pool: pg.Pool, items: readonly Grading[], rows: Prisma.VerdictCreateManyInput[]): Promise<void> {
  const arrays = COLUMNS.map(([, , value]) => rows.map(value));
  await pool.query(INSERT_VERDICTS([...arrays, ...attemptsAndCountersParams(items)]));
}

/** Whether the database behind a client is PGlite (PostgreSQL in WebAssembly), asked once per client. */
const engineOf = perClient<Db, Promise<'server' | 'pglite'>>(async (db) => {
  const { rows } = await poolOf(db).query<{ v: string }>('SELECT version() AS v');
  return rows[0]?.v.includes('wasm32') ? 'pglite' : 'server';
});

/** One transaction through the client's pool: COPY for a bulk batch on a server, arrays otherwise. */
export async function writeGradings(db: Db, items: readonly Grading[], opts: { path?: 'copy' | 'arrays' } = {}): Promise<void> {
  const rows = items.flatMap((g) => g.rows);
  const path = opts.path ?? (rows.length >= COPY_MIN_ROWS && (await engineOf(db)) === 'server' ? 'copy' : 'arrays');
  const pool = poolOf(db);
  // Judge reasoning, explanations and arguments may carry NUL or lone surrogates: stored escaped
  // (the COPY path makes its rows storable chunk by chunk, see copyLines).
  if (path === 'arrays') return writeByArrays(pool, items, rows.map((r) => storable(r)));
  const client = await pool.connect();
  let broken = false;
  try {
    await writeByCopy(client, items, rows);
  } catch (e) {
    broken = true;
    throw e;
  } finally {
    client.release(broken);
  }
}

/** Group commit of gradings over one client's pool (tests make their own; the pipeline shares one per client). */
export class GradingWriter {
  private readonly commit: GroupCommit<Grading, null>;

  constructor(db: Db, opts: { path?: 'copy' | 'arrays' } = {}) {
    this.commit = new GroupCommit(
      async (items) => {
        await writeGradings(db, items, opts);
        return items.map(() => null);
      },
      // Three batches at once, each its own transaction (counters are appended rows, so no batch
      // waits on another's run row), what is queued shared among them: one batch's COPY
      // overlaps the next one's preparation and commit. With 64 replies in flight, one batch at a
      // time measured 0.60–0.67 of a plain COPY, three 0.72–0.89 (bench/pipeline.bench.ts).
      { maxCost: MAX_ROWS, cost: (g) => Math.max(1, g.rows.length), parallel: 3, minShare: COPY_MIN_ROWS },
    );
  }

  async write(g: Grading): Promise<void> {
    await this.commit.submit(g);
  }
}

/** The process's writer for a database client (one per client, so batches share its pool). */
export const gradingWriter = perClient<Db, GradingWriter>((db) => new GradingWriter(db));
