/**
 * The three data files of a retrieval blueprint, read from text (pure: the caller reads the
 * files, see lib/server/blueprints/retrieval-files.ts):
 *
 *   corpus   JSONL, one `{"id": …, "text": …}` per line (`_id`, as BEIR writes it, is accepted)
 *   queries  JSONL, the same shape
 *   qrels    JSONL `{"query_id": …, "doc_id": …, "relevance": …}`, or TREC qrels text
 *            `qid iter docid rel` (told apart by the first non-blank character: `{` is JSONL)
 *
 * Every problem is an issue at the data file's path:line:col, as blueprint problems are, and
 * all of them are listed (up to MAX_LISTED_ISSUES per file). Blank lines and, in TREC text,
 * `#` comment lines are skipped. Relevance is a whole number (trec_eval reads it with `atol`);
 * ≥ 1 is relevant, 0 judged non-relevant, negative "judged unjudged" as trec_eval has it.
 */
import { z } from 'zod';
import { byPosition, Issues, type BlueprintIssue } from '../blueprint/errors';
import { findJsonSyntaxError } from '../blueprint/json-syntax';
import { describeUnstorable, unstorableOffset, utf8ByteLength } from '../blueprint/text';
import type { RankedDoc } from './metrics';
import { RETRIEVAL_LIMITS, retrievalLimitHint, type RetrievalLimits } from './limits';

export const RetrievalDocSchema = z.object({ id: z.string().min(1), text: z.string() });
export type RetrievalDoc = z.infer<typeof RetrievalDocSchema>;
export const RetrievalQuerySchema = z.object({ id: z.string().min(1), text: z.string() });
export type RetrievalQuery = z.infer<typeof RetrievalQuerySchema>;
export const QrelSchema = z.object({ queryId: z.string().min(1), docId: z.string().min(1), relevance: z.number().int() });
export type Qrel = z.infer<typeof QrelSchema>;
export const RetrievalDataSchema = z.object({ corpus: z.array(RetrievalDocSchema), queries: z.array(RetrievalQuerySchema), qrels: z.array(QrelSchema) });
export type RetrievalData = z.infer<typeof RetrievalDataSchema>;

export interface SourceText {
  /** Shown in every issue: the path as the author knows it (repository-relative). */
  path: string;
  text: string;
}

export type FilesResult = { ok: true; data: RetrievalData; warnings: BlueprintIssue[] } | { ok: false; issues: BlueprintIssue[] };

interface Line {
  text: string;
  /** 1-based. */
  line: number;
}

/** Non-blank lines with their numbers; `\r\n` endings are accepted. */
function linesOf(text: string): Line[] {
  const out: Line[] = [];
  const raw = text.split('\n');
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i]!.endsWith('\r') ? raw[i]!.slice(0, -1) : raw[i]!;
    if (t.trim() !== '') out.push({ text: t, line: i + 1 });
  }
  return out;
}

/** The file-level checks every data file gets before any line is read. */
function checkWholeFile(file: SourceText, issues: Issues, limits: RetrievalLimits): boolean {
  const bytes = utf8ByteLength(file.text);
  if (bytes > limits.maxFileBytes) {
    issues.error(null, 'limit', `the file is ${bytes.toLocaleString('en-US')} bytes, over the limit of ${limits.maxFileBytes.toLocaleString('en-US')}`, retrievalLimitHint('bytes per retrieval data file', limits.maxFileBytes, 'Use a smaller corpus or sample it.'));
    return false;
  }
  if (file.text.trim() === '') {
    issues.error(null, 'empty', 'the file is empty', 'Write one JSON object per line, e.g. `{"id": "d1", "text": "…"}`.');
    return false;
  }
  return true;
}

/** Column (1-based) of `"key"` in a JSON line, else 1: where an author looks for a field's problem. */
function keyColumn(line: string, keys: readonly string[]): number {
  for (const key of keys) {
    const at = line.indexOf(JSON.stringify(key));
    if (at >= 0) return at + 1;
  }
  return 1;
}

/** Column of the value written after `"key":`. */
function valueColumn(line: string, key: string): number {
  const at = line.indexOf(JSON.stringify(key));
  if (at < 0) return 1;
  const m = /^\s*:\s*/.exec(line.slice(at + key.length + 2));
  return at + key.length + 2 + (m ? m[0].length : 0) + 1;
}

/** Parses one JSONL line to an object, or records where it is broken. */
function jsonObjectOf(l: Line, issues: Issues, example: string): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(l.text);
  } catch {
    const err = findJsonSyntaxError(l.text);
    issues.error({ line: l.line, col: (err?.offset ?? 0) + 1 }, 'syntax', `this line is not valid JSON${err ? `: ${err.message}` : ''}`, `Each line is one JSON object, e.g. \`${example}\`.`);
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    issues.error({ line: l.line, col: 1 }, 'schema', `each line must be a JSON object, not ${Array.isArray(value) ? 'a list' : JSON.stringify(value)}`, `Write e.g. \`${example}\`.`);
    return null;
  }
  return value as Record<string, unknown>;
}

/** The first of `keys` present in the object, and which one it was. */
function field(obj: Record<string, unknown>, keys: readonly string[]): { key: string; value: unknown } | null {
  for (const key of keys) if (Object.hasOwn(obj, key)) return { key, value: obj[key] };
  return null;
}

/** An id: a non-empty string, or a whole number (written as text, as TREC files do). */
function idOf(raw: { key: string; value: unknown } | null, l: Line, what: string, keys: readonly string[], issues: Issues, limits: RetrievalLimits): string | null {
  const at = { line: l.line, col: raw ? valueColumn(l.text, raw.key) : keyColumn(l.text, keys) };
  if (!raw) {
    issues.error({ line: l.line, col: 1 }, 'schema', `this line has no \`${keys[0]}\``, `Add \`"${keys[0]}": "…"\` (the ${what}).`);
    return null;
  }
  const value = typeof raw.value === 'number' && Number.isInteger(raw.value) ? String(raw.value) : raw.value;
  if (typeof value !== 'string' || value.trim() === '') {
    issues.error(at, 'schema', `\`${raw.key}\` must be a non-empty string, not ${JSON.stringify(raw.value)}`, `Write \`"${raw.key}": "…"\`.`);
    return null;
  }
  if (value.length > limits.maxIdChars) {
    issues.error(at, 'limit', `\`${raw.key}\` is ${value.length.toLocaleString('en-US')} characters long, over the limit of ${limits.maxIdChars}`, retrievalLimitHint('characters per id', limits.maxIdChars, 'Use shorter ids.'));
    return null;
  }
  if (unstorableOffset(value) >= 0) {
    issues.error(at, 'unstorable_text', `\`${raw.key}\` contains ${describeUnstorable(value, unstorableOffset(value))}, which cannot be stored`, 'Remove it.');
    return null;
  }
  return value;
}

const ID_KEYS = ['id', '_id'] as const;

/** A JSONL file of `{id, text}` records (the corpus or the queries). */
function parseTexts(file: SourceText, what: 'document' | 'query', max: number, limits: RetrievalLimits): { records: RetrievalDoc[]; issues: Issues; lineOf: Map<string, number> } {
  const issues = new Issues(file.path);
  const records: RetrievalDoc[] = [];
  const lineOf = new Map<string, number>();
  if (!checkWholeFile(file, issues, limits)) return { records, issues, lineOf };
  const example = `{"id": "${what === 'document' ? 'd1' : 'q1'}", "text": "…"}`;
  const lines = linesOf(file.text);
  if (lines.length > max) {
    const first = lines[max]!;
    issues.error({ line: first.line, col: 1 }, 'limit', `the file has ${lines.length.toLocaleString('en-US')} ${what === 'document' ? 'documents' : 'queries'}, over the limit of ${max.toLocaleString('en-US')}; this is number ${(max + 1).toLocaleString('en-US')}`, retrievalLimitHint(what === 'document' ? 'documents per corpus' : 'queries per file', max, 'Sample the file.'));
    return { records, issues, lineOf };
  }
  for (const l of lines) {
    if (issues.full) break;
    const obj = jsonObjectOf(l, issues, example);
    if (!obj) continue;
    const id = idOf(field(obj, ID_KEYS), l, `${what}'s id`, ID_KEYS, issues, limits);
    const text = field(obj, ['text']);
    let body: string | null = null;
    if (!text) issues.error({ line: l.line, col: 1 }, 'schema', 'this line has no `text`', `Add \`"text": "…"\` (the ${what}'s text, which is embedded).`);
    else if (typeof text.value !== 'string' || text.value.trim() === '') issues.error({ line: l.line, col: valueColumn(l.text, 'text') }, 'schema', `\`text\` must be a non-empty string, not ${JSON.stringify(text.value).slice(0, 40)}`, 'Write `"text": "…"`.');
    else if (text.value.length > limits.maxTextChars) issues.error({ line: l.line, col: valueColumn(l.text, 'text') }, 'limit', `\`text\` is ${text.value.length.toLocaleString('en-US')} characters long, over the limit of ${limits.maxTextChars.toLocaleString('en-US')}`, retrievalLimitHint('characters per text', limits.maxTextChars, 'Split the document into passages.'));
    else if (unstorableOffset(text.value) >= 0) issues.error({ line: l.line, col: valueColumn(l.text, 'text') }, 'unstorable_text', `\`text\` contains ${describeUnstorable(text.value, unstorableOffset(text.value))}, which cannot be stored`, 'Remove it.');
    else body = text.value;
    if (id === null) continue;
    const first = lineOf.get(id);
    if (first !== undefined) {
      issues.error({ line: l.line, col: valueColumn(l.text, field(obj, ID_KEYS)!.key) }, 'duplicate_id', `the ${what} id ${JSON.stringify(id)} is already used at line ${first}`, `Give every ${what} a unique id.`);
      continue;
    }
    lineOf.set(id, l.line);
    if (body !== null) records.push({ id, text: body });
  }
  return { records, issues, lineOf };
}

/** A parsed qrel and where it was written, for "names an unknown document" errors. */
interface PlacedQrel extends Qrel {
  line: number;
  queryCol: number;
  docCol: number;
}

const QUERY_ID_KEYS = ['query_id', 'qid', 'query-id'] as const;
const DOC_ID_KEYS = ['doc_id', 'docid', 'corpus_id', 'corpus-id'] as const;
const RELEVANCE_KEYS = ['relevance', 'rel', 'score'] as const;

function relevanceOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*[-+]?\d+\s*$/.test(value)) return Number(value);
  return null;
}

function parseJsonlQrels(file: SourceText, issues: Issues, limits: RetrievalLimits, lines: Line[]): PlacedQrel[] {
  const out: PlacedQrel[] = [];
  const example = '{"query_id": "q1", "doc_id": "d1", "relevance": 1}';
  for (const l of lines) {
    if (issues.full) break;
    const obj = jsonObjectOf(l, issues, example);
    if (!obj) continue;
    const q = field(obj, QUERY_ID_KEYS);
    const d = field(obj, DOC_ID_KEYS);
    const queryId = idOf(q, l, "query's id", QUERY_ID_KEYS, issues, limits);
    const docId = idOf(d, l, "document's id", DOC_ID_KEYS, issues, limits);
    const r = field(obj, RELEVANCE_KEYS);
    let relevance: number | null = null;
    if (!r) issues.error({ line: l.line, col: 1 }, 'schema', 'this line has no `relevance`', 'Add `"relevance": 1` (a whole number: ≥ 1 relevant, higher more relevant; 0 not relevant).');
    else if ((relevance = relevanceOf(r.value)) === null) issues.error({ line: l.line, col: valueColumn(l.text, r.key) }, 'schema', `\`${r.key}\` must be a whole number, not ${JSON.stringify(r.value)}`, 'Write e.g. `"relevance": 2` (≥ 1 is relevant; trec_eval reads relevance as a whole number).');
    if (queryId === null || docId === null || relevance === null) continue;
    out.push({ queryId, docId, relevance, line: l.line, queryCol: valueColumn(l.text, q!.key), docCol: valueColumn(l.text, d!.key) });
  }
  return out;
}

/** Whitespace-separated fields of a line with the column each starts at. */
function fieldsOf(text: string): { value: string; col: number }[] {
  const out: { value: string; col: number }[] = [];
  const re = /\S+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) out.push({ value: m[0], col: m.index + 1 });
  return out;
}

function parseTrecQrelLines(issues: Issues, limits: RetrievalLimits, lines: Line[]): PlacedQrel[] {
  const out: PlacedQrel[] = [];
  for (const l of lines) {
    if (issues.full) break;
    if (l.text.trimStart().startsWith('#')) continue;
    const f = fieldsOf(l.text);
    if (f.length !== 4) {
      issues.error({ line: l.line, col: f[Math.min(f.length, 4)]?.col ?? 1 }, 'syntax', `a TREC qrels line has 4 fields (\`qid iter docid rel\`), this one has ${f.length}`, 'Write e.g. `q1 0 d17 2`; the second field (iteration) is ignored.');
      continue;
    }
    const [qid, , docid, rel] = f as [{ value: string; col: number }, unknown, { value: string; col: number }, { value: string; col: number }];
    const relevance = relevanceOf(rel.value);
    if (relevance === null) {
      issues.error({ line: l.line, col: rel.col }, 'schema', `the relevance must be a whole number, not ${JSON.stringify(rel.value)}`, 'Write e.g. `q1 0 d17 2` (≥ 1 is relevant).');
      continue;
    }
    let bad = false;
    for (const [v, what] of [[qid, 'query id'], [docid, 'document id']] as const) {
      if (v.value.length > limits.maxIdChars) {
        issues.error({ line: l.line, col: v.col }, 'limit', `the ${what} is ${v.value.length.toLocaleString('en-US')} characters long, over the limit of ${limits.maxIdChars}`, retrievalLimitHint('characters per id', limits.maxIdChars, 'Use shorter ids.'));
        bad = true;
      }
    }
    if (!bad) out.push({ queryId: qid.value, docId: docid.value, relevance, line: l.line, queryCol: qid.col, docCol: docid.col });
  }
  return out;
}

/** Remembers where each (query, document) pair was first written; returns that line for a repeat. */
function pairLines(): (queryId: string, docId: string, line: number) => number | undefined {
  const seen = new Map<string, number>();
  return (queryId, docId, line) => {
    const key = `${queryId}\u0000${docId}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, line);
    return first;
  };
}

/** Reads qrels in either format, reporting duplicates (trec_eval stops at them: "duplicate docs"). */
function parseQrelsInto(file: SourceText, issues: Issues, limits: RetrievalLimits): PlacedQrel[] {
  if (!checkWholeFile(file, issues, limits)) return [];
  const lines = linesOf(file.text);
  if (lines.length > limits.maxQrels) {
    issues.error({ line: lines[limits.maxQrels]!.line, col: 1 }, 'limit', `the file has ${lines.length.toLocaleString('en-US')} judgements, over the limit of ${limits.maxQrels.toLocaleString('en-US')}`, retrievalLimitHint('judgements per qrels file', limits.maxQrels, 'Sample the queries.'));
    return [];
  }
  const jsonl = lines[0]!.text.trimStart().startsWith('{');
  const placed = jsonl ? parseJsonlQrels(file, issues, limits, lines) : parseTrecQrelLines(issues, limits, lines);
  const firstLine = pairLines();
  const out: PlacedQrel[] = [];
  for (const q of placed) {
    const first = firstLine(q.queryId, q.docId, q.line);
    if (first !== undefined) {
      issues.error({ line: q.line, col: q.docCol }, 'duplicate_id', `the query ${JSON.stringify(q.queryId)} judges the document ${JSON.stringify(q.docId)} twice (first at line ${first})`, 'Keep one judgement per query and document.');
      continue;
    }
    out.push(q);
  }
  return out;
}

function finish(issues: Issues[]): BlueprintIssue[] {
  return issues.flatMap((i) => [...i.list.sort(byPosition), ...i.overflow()]);
}

const strip = (q: PlacedQrel): Qrel => ({ queryId: q.queryId, docId: q.docId, relevance: q.relevance });

/** TREC or JSONL qrels on their own (the CLI scorer: no corpus to check the ids against). */
export function parseTrecQrels(text: string, path: string, limits: RetrievalLimits = RETRIEVAL_LIMITS): { ok: true; qrels: Qrel[] } | { ok: false; issues: BlueprintIssue[] } {
  const issues = new Issues(path);
  const placed = parseQrelsInto({ path, text }, issues, limits);
  return issues.hasErrors() ? { ok: false, issues: finish([issues]) } : { ok: true, qrels: placed.map(strip) };
}

/**
 * A TREC run file, `qid Q0 docid rank score tag` per line, as trec_eval reads it: the rank
 * and tag fields are ignored (the order comes from the score, see metrics.ts); a document
 * listed twice for one query is an error (trec_eval: "duplicate docs").
 */
export function parseTrecRun(text: string, path: string, limits: RetrievalLimits = RETRIEVAL_LIMITS): { ok: true; rankings: Record<string, RankedDoc[]> } | { ok: false; issues: BlueprintIssue[] } {
  const issues = new Issues(path);
  const rankings: Record<string, RankedDoc[]> = Object.create(null) as Record<string, RankedDoc[]>;
  if (!checkWholeFile({ path, text }, issues, limits)) return { ok: false, issues: finish([issues]) };
  const firstLine = pairLines();
  for (const l of linesOf(text)) {
    if (issues.full) break;
    if (l.text.trimStart().startsWith('#')) continue;
    const f = fieldsOf(l.text);
    if (f.length !== 6) {
      issues.error({ line: l.line, col: f[Math.min(f.length, 6)]?.col ?? 1 }, 'syntax', `a TREC run line has 6 fields (\`qid Q0 docid rank score tag\`), this one has ${f.length}`, 'Write e.g. `q1 Q0 d17 1 12.5 myrun`.');
      continue;
    }
    const [qid, , docid, , scoreField] = f as [{ value: string; col: number }, unknown, { value: string; col: number }, unknown, { value: string; col: number }];
    const score = Number(scoreField.value);
    if (scoreField.value.trim() === '' || !Number.isFinite(score)) {
      issues.error({ line: l.line, col: scoreField.col }, 'schema', `the score must be a number, not ${JSON.stringify(scoreField.value)}`, 'The fifth field is the score (higher ranks first).');
      continue;
    }
    const first = firstLine(qid.value, docid.value, l.line);
    if (first !== undefined) {
      issues.error({ line: l.line, col: docid.col }, 'duplicate_id', `the query ${JSON.stringify(qid.value)} retrieves the document ${JSON.stringify(docid.value)} twice (first at line ${first})`, 'List each document once per query.');
      continue;
    }
    (rankings[qid.value] ??= []).push({ docId: docid.value, score });
  }
  return issues.hasErrors() ? { ok: false, issues: finish([issues]) } : { ok: true, rankings: { ...rankings } };
}

/**
 * The corpus, queries and qrels of a retrieval blueprint, checked against each other: a qrel
 * naming a document or query that is not in the files is an error at the qrel. A query with
 * no judgement is a warning (trec_eval leaves it out of the mean; see metrics.ts).
 */
export function parseRetrievalFiles(files: { corpus: SourceText; queries: SourceText; qrels: SourceText }, limits: RetrievalLimits = RETRIEVAL_LIMITS): FilesResult {
  const corpus = parseTexts(files.corpus, 'document', limits.maxDocuments, limits);
  const queries = parseTexts(files.queries, 'query', limits.maxQueries, limits);
  const qrelIssues = new Issues(files.qrels.path);
  const placed = parseQrelsInto(files.qrels, qrelIssues, limits);
  const canCrossCheck = !corpus.issues.hasErrors() && !queries.issues.hasErrors();
  const judged = new Set<string>();
  if (canCrossCheck) {
    for (const q of placed) {
      if (qrelIssues.full) break;
      if (!queries.lineOf.has(q.queryId)) qrelIssues.error({ line: q.line, col: q.queryCol }, 'schema', `the query ${JSON.stringify(q.queryId)} is not in ${files.queries.path}`, `Add the query to ${files.queries.path}, or correct the id.`);
      if (!corpus.lineOf.has(q.docId)) qrelIssues.error({ line: q.line, col: q.docCol }, 'schema', `the document ${JSON.stringify(q.docId)} is not in ${files.corpus.path}`, `Add the document to ${files.corpus.path}, or correct the id.`);
      judged.add(q.queryId);
    }
  }
  const all = [corpus.issues, queries.issues, qrelIssues];
  if (all.some((i) => i.hasErrors())) return { ok: false, issues: finish(all).filter((i) => i.severity === 'error') };
  if (placed.length === 0) {
    qrelIssues.error(null, 'empty', 'the qrels judge no document', 'Write one judgement per line, e.g. `{"query_id": "q1", "doc_id": "d1", "relevance": 1}`.');
    return { ok: false, issues: finish([qrelIssues]) };
  }
  for (const q of queries.records) {
    if (!judged.has(q.id)) queries.issues.warn({ line: queries.lineOf.get(q.id)!, col: 1 }, 'suspicious', `the query ${JSON.stringify(q.id)} has no judgement in ${files.qrels.path}, so it is not scored (as trec_eval leaves it out)`, 'Add judgements for it, or remove it.');
  }
  return { ok: true, data: { corpus: corpus.records, queries: queries.records, qrels: placed.map(strip) }, warnings: finish([queries.issues]).filter((i) => i.severity === 'warning') };
}
