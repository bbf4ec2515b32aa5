/**
 * Weval conformance of the parser: every vector recorded from Weval's own
 * `parseAndNormalizeBlueprint` (Weval commit 51dc4d3) — the 50 parser-cases and the 197
 * parser-corpus entries — goes through `parseBlueprint`, and the normalised blueprint,
 * projected to Weval's shape (`wevalBlueprint`), must deep-equal Weval's recorded output.
 * Where Assay deliberately differs, the vector is named in conformance.differences.ts with the
 * defect number and the output Assay must produce instead; nothing is skipped. For vectors
 * where Weval threw, Assay must reject too, with an error of the same kind (the texts differ).
 */
import { describe, expect, it } from 'vitest';
// The vectors and the corpus are outside the repository; the test kit reads them at run time
// (lib/core code does no I/O of its own), and each suite skips without its data.
import { conformanceText, corpusBlueprints, needsBoth, needsConformance, WEVAL_CONFORMANCE, WEVAL_CORPUS } from '@/testing/outside-data';
import { CORPUS_DIFFERENCES, QUOTED_FUNCTIONS, type Difference } from './conformance-differences.testkit';
import type { IssueCode } from './errors';
import { parseBlueprint, type ParseResult } from './parse';
import { wevalBlueprint } from './weval';

const corpusFiles = corpusBlueprints();

type Json = Record<string, unknown>;
interface ParserCase {
  name: string;
  file_type: 'yaml' | 'json';
  input_text: string;
  output?: Json;
  error?: string;
}
interface CorpusEntry {
  path: string;
  file_type: 'yaml' | 'json';
  output?: Json;
  error?: string;
  unavailable?: string;
}

const cases = (JSON.parse(conformanceText('parser-cases.json') ?? '{"cases": []}') as { cases: ParserCase[] }).cases;
const corpus = (JSON.parse(conformanceText('parser-corpus.json') ?? '{"entries": []}') as { entries: CorpusEntry[] }).entries;

/** The kind of a Weval error message, in Assay's issue codes. */
function wevalErrorKind(message: string): IssueCode {
  if (/^Failed to parse YAML blueprint: YAML blueprint is empty/.test(message)) return 'empty';
  if (/^Failed to parse (YAML|JSON) blueprint/.test(message)) return 'syntax';
  if (/^Undefined definition/.test(message)) return 'unknown_ref';
  // render_as, author, references, point shape, multiplier, message shape, system, toolUse…
  return 'schema';
}

/** Vectors Weval rejected where Assay rejects for another reason (not a Weval defect). */
// (none: `blueprints/tool-use-native-test.yml`, once one, is now rejected for Weval's own reason,
// its `toolUse.mode: auto`, besides its two regexes that do not compile.)
const ERROR_DIFFERENCES: Record<string, { why: string; codes: IssueCode[]; at: string[] }> = {};

function projected(result: ParseResult): Json {
  if (!result.ok) throw new Error(`expected the blueprint to parse: ${result.errors.map((e) => `${e.line}:${e.col} ${e.message}`).join('; ')}`);
  return JSON.parse(JSON.stringify(wevalBlueprint(result.blueprint))) as Json;
}

describe.skipIf(!WEVAL_CONFORMANCE)(needsConformance('Weval parser-cases'), () => {
  it('has the 50 recorded cases', () => expect(cases).toHaveLength(50));

  for (const c of cases) {
    it(c.name, () => {
      const result = parseBlueprint(c.input_text, { file: `case.${c.file_type === 'json' ? 'json' : 'yml'}`, format: c.file_type });
      if (c.error !== undefined) {
        expect(result.ok, `Weval threw "${c.error}"`).toBe(false);
        if (!result.ok) expect(result.errors.map((e) => e.code)).toContain(wevalErrorKind(c.error));
        return;
      }
      expect(projected(result)).toEqual(c.output);
    });
  }

  it('matches Weval on all 50: 36 outputs equal, 14 rejected with the same kind of error', () => {
    expect(cases.filter((c) => c.output).length).toBe(36);
    expect(cases.filter((c) => c.error !== undefined).length).toBe(14);
  });
});

describe.skipIf(!WEVAL_CONFORMANCE || !WEVAL_CORPUS)(needsBoth('Weval parser-corpus'), () => {
  it('has the 197 recorded entries', () => expect(corpus).toHaveLength(197));

  it('names only vectors that exist, each difference applying as often as it says', () => {
    const paths = new Set(corpus.map((e) => e.path));
    for (const d of CORPUS_DIFFERENCES) expect(paths.has(d.vector), d.vector).toBe(true);
    // Defect 1 covers exactly the 89 points in 11 blueprints that the conformance README counts.
    const d1 = CORPUS_DIFFERENCES.filter((d) => d.defect === 1);
    expect(d1.length).toBe(11);
    expect(d1.reduce((n, d) => n + d.changes, 0)).toBe(89);
    expect(new Set(QUOTED_FUNCTIONS.map(([w]) => w)).size).toBe(QUOTED_FUNCTIONS.length);
    // Defect 6 covers the 111 raw point_defs objects the corpus summary counts.
    expect(CORPUS_DIFFERENCES.filter((d) => d.defect === 6).reduce((n, d) => n + d.changes, 0)).toBe(111);
  });

  for (const entry of corpus) {
    it(entry.path, () => {
      if (entry.unavailable !== undefined) {
        // Not parsed by the recorder, and absent from the corpus snapshot too.
        expect(corpusFiles[entry.path]).toBeUndefined();
        return;
      }
      const text = corpusFiles[entry.path];
      expect(text, 'the corpus file of this vector').toBeDefined();
      const result = parseBlueprint(text!, { file: entry.path });
      if (entry.error !== undefined) {
        expect(result.ok, `Weval threw "${entry.error.split('\n')[0]}"`).toBe(false);
        if (result.ok) return;
        const differs = ERROR_DIFFERENCES[entry.path];
        if (differs) {
          expect(result.errors.map((e) => e.code), differs.why).toEqual(differs.codes);
          expect(result.errors.map((e) => `${e.line}:${e.col}`)).toEqual(differs.at);
        } else {
          expect(result.errors.map((e) => e.code)).toContain(wevalErrorKind(entry.error));
        }
        return;
      }
      const expected = structuredClone(entry.output!);
      for (const difference of CORPUS_DIFFERENCES.filter((d: Difference) => d.vector === entry.path)) {
        expect(difference.expect(expected), `defect ${difference.defect}: ${difference.why}`).toBe(difference.changes);
      }
      expect(projected(result)).toEqual(expected);
    });
  }

  it('tallies 163 entries equal to Weval, 30 deliberately different (named), 3 rejected like Weval, 1 unavailable', () => {
    const parsed = corpus.filter((e) => e.output);
    const named = new Set(CORPUS_DIFFERENCES.map((d) => d.vector));
    expect(parsed.length).toBe(193);
    expect(parsed.filter((e) => named.has(e.path)).length).toBe(30);
    expect(corpus.filter((e) => e.error !== undefined).length).toBe(3);
    expect(corpus.filter((e) => e.unavailable !== undefined).length).toBe(1);
  });
});
