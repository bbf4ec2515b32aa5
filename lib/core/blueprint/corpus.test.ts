/**
 * Every real blueprint of weval-org/configs (corpus/weval-configs/blueprints, 196 files) loads,
 * except the ones listed here with the exact errors and positions an author would be shown.
 */
import { describe, expect, it } from 'vitest';
import { corpusBlueprints, needsCorpus, WEVAL_CORPUS } from '@/testing/outside-data';
import { parseBlueprint } from './parse';

// Read by the test kit at run time (lib/core code does no I/O of its own); {} without the corpus.
const texts = corpusBlueprints();

/** The files that do not load, and why: `line:col code`. */
const INVALID: Record<string, string[]> = {
  // A plain value containing ": " (js-yaml, Weval's parser, rejects both files too).
  'blueprints/eu-ai-act-202401689.yml': ['3:14 syntax'],
  'blueprints/maternal-health-uttar-pradesh.yml': ['2:8 syntax'],
  // `toolUse.mode: auto` (Weval's parser rejects it too; Assay's own sending mode is spelled `native`), and Perl's `(??{…})` is not a JavaScript regex.
  'blueprints/tool-use-native-test.yml': ['14:9 schema', '60:19 invalid_regex', '61:19 invalid_regex'],
};

describe.skipIf(!WEVAL_CORPUS)(needsCorpus('the weval-configs corpus'), () => {
  const files = Object.keys(texts).sort();
  const textOf = (file: string) => texts[file]!;

  it('has 196 blueprints, 193 of which load', () => {
    expect(files).toHaveLength(196);
    const failing = files.filter((file) => !parseBlueprint(textOf(file), { file }).ok);
    expect(failing).toEqual(Object.keys(INVALID).sort());
  });

  for (const file of files) {
    it(file, () => {
      const result = parseBlueprint(textOf(file), { file });
      if (INVALID[file]) {
        expect(result.ok).toBe(false);
        if (!result.ok) {
          expect(result.errors.map((e) => `${e.line}:${e.col} ${e.code}`)).toEqual(INVALID[file]);
          for (const e of result.errors) {
            expect(e.file).toBe(file);
            expect(e.hint.length).toBeGreaterThan(0);
          }
        }
        return;
      }
      if (!result.ok) throw new Error(result.errors.map((e) => `${e.file}:${e.line}:${e.col}: ${e.message}`).join('\n'));
      expect(result.blueprint.prompts.length + (result.blueprint.headerKeys.length > 0 ? 1 : 0)).toBeGreaterThan(0);
    });
  }
});
