/**
 * `assay export` on a run the pipeline made (`assay run` from fixtures, judged by the fake LLM):
 * every table in JSONL and CSV, read back — the CSV by a CSV parser — with every field as stored
 * (quotes, commas, CRLF and LF line breaks, accents, CJK, emoji, a leading `=`), sealed prompts
 * absent, and the rows the stored ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse as parseCsv } from 'csv-parse/sync';
import { EXPORT_TABLES, exportColumns, ExportTableSchema, type ExportTable } from '@/lib/core';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { assay as runAssay } from '@/lib/cli/cli.testkit';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';
import { evalLogValidator } from '@/lib/server/exports/inspect/schema.testkit';

let dir: string;
let t: TestDatabase;
let fake: FakeLlm;
let runId: string;

const assay = (args: string[], env: Record<string, string> = {}) => runAssay(args, undefined, { DATABASE_URL: t.url, ...env });

const AWKWARD = 'He said "hi", then\r\nleft; naïve 日本語 ✓ 🙂\n=SUM(A1:A2), "quoted", trailing space ';
// line breaks alone in a field with nothing else to quote (no comma, no quote): a lone LF, a lone CR
const BARE_BREAKS = 'hi\nthere\rfriend';

const BLUEPRINT = `title: Export probe
models: [openai:alpha, openai:beta]
---
- id: tricky
  prompt: Quote something awkward.
  should:
    - $contains: said
    - Is polite
- id: plain
  prompt: Say hi.
  should:
    - $icontains: hi
- id: SECRET-1
  split: test
  prompt: SECRET question
  should:
    - $icontains: SECRET
`;

const FIXTURES = { responses: { tricky: { default: AWKWARD }, plain: { default: BARE_BREAKS, byModel: { 'openai:beta': 'hello' } }, 'SECRET-1': { default: 'SECRET answer' } } };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assay-export-'));
  await writeFile(join(dir, 'probe.yml'), BLUEPRINT);
  await writeFile(join(dir, 'fixtures.json'), JSON.stringify(FIXTURES));
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: [{ model: 'judge', judge: { labels: { E: 0.9, D: 0.1 }, reasoning: 'Polite, with "quotes", and a line\nbreak.' } }] });
  const r = await assay(['run', join(dir, 'probe.yml'), '--fixtures', join(dir, 'fixtures.json'), '--judges', 'openai:judge', '--json', '-', '--quiet'], { ASSAY_LLM_BASE_URL: fake.url });
  expect(r.code, r.stderr).toBe(0);
  runId = (JSON.parse(r.stdout) as { run: { id: string } }).run.id;
}, 120_000);
afterAll(async () => {
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
  await t?.close();
});

/** The stored rows the table should hold: the open prompts' (sealed SECRET-1 left out). */
async function storedCount(table: ExportTable): Promise<number> {
  const where = { runId, promptKey: { not: 'SECRET-1' } };
  if (table === 'replies') return t.db.reply.count({ where });
  if (table === 'verdicts') return t.db.verdict.count({ where });
  return t.db.attemptScore.count({ where });
}

/** A JSONL row's value as the CSV writes it (docs/exports.md). */
function asCsvField(value: unknown, type: string): string {
  if (value === null) return '';
  if (type === 'json') return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return String(value);
}

describe(`assay export (${process.env.ASSAY_TEST_DB})`, () => {
  it('the run stored the awkward reply and the sealed prompt (so what the export keeps and leaves out is real)', async () => {
    expect(await t.db.reply.count({ where: { runId, content: AWKWARD } })).toBe(2);
    expect(await t.db.reply.count({ where: { runId, promptKey: 'SECRET-1' } })).toBe(2);
    expect(await t.db.verdict.count({ where: { runId, kind: 'text' } })).toBe(2);
  });

  it.each(ExportTableSchema.options)('%s: JSONL rows parse with the table schema, CSV read back by a CSV parser has every field intact', { timeout: 60_000 }, async (table) => {
    const jsonlPath = join(dir, `${table}.jsonl`);
    const csvPath = join(dir, `${table}.csv`);
    const j = await assay(['export', runId, '--table', table, '--out', jsonlPath]);
    expect(j.code, j.stderr).toBe(0);
    const c = await assay(['export', runId, '--table', table, '--format', 'csv', '--out', csvPath]);
    expect(c.code, c.stderr).toBe(0);
    const expected = await storedCount(table);
    expect(c.stderr).toContain(`${expected} rows of ${table}`);

    const jsonl = (await readFile(jsonlPath, 'utf8')).split('\n');
    expect(jsonl.pop()).toBe(''); // ends with a line break
    const rows = jsonl.map((line) => EXPORT_TABLES[table].strict().parse(JSON.parse(line)) as Record<string, unknown>);
    expect(rows).toHaveLength(expected);
    const columns = exportColumns(table);
    for (const row of rows) expect(Object.keys(row)).toEqual(columns.map((col) => col.name));

    const csvText = await readFile(csvPath, 'utf8');
    expect(csvText).not.toMatch(/SECRET/);
    const records = parseCsv(csvText, { columns: true, bom: false, relax_quotes: false }) as Record<string, string>[];
    expect(Object.keys(records[0]!)).toEqual(columns.map((col) => col.name));
    expect(records).toHaveLength(rows.length);
    records.forEach((record, i) => {
      for (const col of columns) expect(record[col.name], `${table} row ${i} ${col.name}`).toBe(asCsvField(rows[i]![col.name], col.type));
    });
    expect(await readFile(jsonlPath, 'utf8')).not.toMatch(/SECRET/);
  });

  it('keeps every character of a reply, in both formats, and the judges with their distribution on each judged verdict', async () => {
    const replies = (await readFile(join(dir, 'replies.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { prompt_key: string; content: string; turns: { role: string; content: string }[] });
    const tricky = replies.filter((r) => r.prompt_key === 'tricky');
    expect(tricky.map((r) => r.content)).toEqual([AWKWARD, AWKWARD]);
    expect(tricky[0]!.turns.at(-1)).toMatchObject({ role: 'assistant', content: AWKWARD });
    const csv = parseCsv(await readFile(join(dir, 'replies.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
    expect(csv.filter((r) => r.prompt_key === 'tricky').map((r) => r.content)).toEqual([AWKWARD, AWKWARD]);
    expect(csv.filter((r) => r.prompt_key === 'plain').map((r) => r.content)).toEqual([BARE_BREAKS, 'hello']);

    const verdicts = (await readFile(join(dir, 'verdicts.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const judged = verdicts.filter((v) => v.kind === 'text');
    expect(judged).toHaveLength(2);
    for (const v of judged) {
      expect(v.distribution).toEqual(expect.any(Object));
      expect(v.judges).toEqual([expect.objectContaining({ judge: expect.stringContaining('judge') })]);
      expect(v.reasoning).toContain('line\nbreak');
    }
    // the stored verdicts, one for one
    const stored = await t.db.verdict.findMany({ where: { runId, promptKey: { not: 'SECRET-1' } }, select: { id: true, status: true, score: true } });
    expect(new Map(verdicts.map((v) => [v.verdict_id, [v.status, v.score]]))).toEqual(new Map(stored.map((v) => [v.id, [v.status, v.score]])));
  });

  it('gzips on request (the same bytes inside), writes to standard output, and leaves no file when the run is unknown', { timeout: 60_000 }, async () => {
    const gz = join(dir, 'verdicts.csv.gz');
    const r = await assay(['export', runId, '--format', 'csv', '--gzip', '--out', gz]);
    expect(r.code, r.stderr).toBe(0);
    expect(gunzipSync(await readFile(gz)).toString('utf8')).toBe(await readFile(join(dir, 'verdicts.csv'), 'utf8'));
    const out = await assay(['export', runId, '--table', 'attempts']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe(await readFile(join(dir, 'attempts.jsonl'), 'utf8'));

    const before = await readdir(dir);
    const missing = await assay(['export', 'no-such-run', '--out', join(dir, 'missing.jsonl')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('assay export: no run with id no-such-run');
    expect(await readdir(dir)).toEqual(before);
  });

  it('--format inspect writes one Inspect eval log per model into the folder, each valid against Inspect\'s published schema', { timeout: 60_000 }, async () => {
    const logs = join(dir, 'inspect');
    const r = await assay(['export', runId, '--format', 'inspect', '--out', logs]);
    expect(r.code, r.stderr).toBe(0);
    const files = (await readdir(logs)).sort();
    expect(files).toEqual([`${runId}-openai-alpha.json`, `${runId}-openai-beta.json`].sort());
    const validate = evalLogValidator();
    for (const f of files) {
      const text = await readFile(join(logs, f), 'utf8');
      expect(validate(JSON.parse(text)), f).toEqual([]);
      expect(text).not.toMatch(/SECRET/);
      expect((JSON.parse(text) as { samples: unknown[] }).samples).toHaveLength(2);
    }
  });

  it("exports a rescore: its verdicts, and as its replies the parent run's it re-graded", { timeout: 60_000 }, async () => {
    const r = await assay(['rescore', runId, '--judges', 'openai:judge'], { ASSAY_LLM_BASE_URL: fake.url });
    expect(r.code, r.stderr).toBe(0);
    const childId = /assay: rescore (\S+) of run/.exec(r.stderr)![1]!;
    const lines = async (table: string) => {
      const out = await assay(['export', childId, '--table', table]);
      expect(out.code, out.stderr).toBe(0);
      return out.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    };
    const parentReplies = (await readFile(join(dir, 'replies.jsonl'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(await lines('replies')).toEqual(parentReplies);
    const verdicts = await lines('verdicts');
    expect(verdicts).toHaveLength(await storedCount('verdicts'));
    expect(new Set(verdicts.map((v) => v.run_id))).toEqual(new Set([childId]));
    expect(new Set(verdicts.map((v) => v.reply_id))).toEqual(new Set(parentReplies.map((p) => p.reply_id)));
  });

  it('says what is wrong with its arguments (exit 2) before opening any database', async () => {
    const bad = await runAssay(['export', runId, '--format', 'xlsx'], undefined, { DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--format must be jsonl, csv or inspect, not "xlsx"');
    const table = await runAssay(['export', runId, '--table', 'points'], undefined, { DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none' });
    expect(table.code).toBe(2);
    expect(table.stderr).toContain('--table must be verdicts, replies or attempts, not "points"');
    const inspect = await runAssay(['export', runId, '--format', 'inspect'], undefined, { DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none' });
    expect(inspect.code).toBe(2);
    expect(inspect.stderr).toContain('--out names the folder');
  });
});
