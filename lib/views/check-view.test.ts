import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createQuickJsSandbox } from '@/lib/core';
import { pointLabel } from '@/lib/core';
import { checkReply, checkSummary, draftPrompts } from './check-view';
import { pathNames } from './score-breakdown';

const MEDICAL = readFileSync(new URL('../../blueprints/examples/medical-facts-weights.yml', import.meta.url), 'utf8');
const PASTA = readFileSync(new URL('../../blueprints/examples/pasta-alternative-paths.yml', import.meta.url), 'utf8');
const noSandbox = async () => {
  throw new Error('WebAssembly is disabled');
};

describe('the browser check', () => {
  it('grades every point of the picked prompt as assay check does; judged points need a judge', async () => {
    const d = draftPrompts(MEDICAL, 'blueprints/medical.yml');
    if (!d.ok) throw new Error(d.message);
    expect(d.prompts.map((p) => p.id)).toEqual(['paracetamol-max-dose', 'ibuprofen-with-asthma']);
    const rows = await checkReply(d.byId.get('paracetamol-max-dose')!, 'The maximum is 4 grams in 24 hours; ask a pharmacist if unsure.', noSandbox);
    expect(rows.map((r) => [r.kind, r.source, r.status, r.score])).toEqual([
      ['text', 'should', 'needs_judge', null],
      ['text', 'should', 'needs_judge', null],
      ['function', 'should', 'pass', 1],
      ['function', 'should', 'pass', 1],
      ['text', 'should_not', 'needs_judge', null],
      ['function', 'should_not', 'pass', 1],
    ]);
    expect(rows[0]!.gate).toBe(true);
    expect(checkSummary(rows)).toBe('3 of 3 checked points pass; 3 need a judge.');

    const bad = await checkReply(d.byId.get('paracetamol-max-dose')!, 'You can take 8 grams.', noSandbox);
    expect(bad.filter((r) => r.kind === 'function').map((r) => r.status)).toEqual(['fail', 'fail', 'fail']);
    expect(checkSummary(bad)).toBe('0 of 3 checked points pass; 3 need a judge.');
  });

  it('runs $js in the sandbox when it starts, and says so for those points when it cannot', async () => {
    const yaml = 'title: Js\n---\n- id: short\n  prompt: Say hi\n  should:\n    - $js: "r.length < 10"\n    - $contains: hi\n';
    const d = draftPrompts(yaml, 'blueprints/js.yml');
    if (!d.ok) throw new Error(d.message);
    const sandbox = await createQuickJsSandbox();
    try {
      const rows = await checkReply(d.byId.get('short')!, 'hi there', async () => sandbox);
      expect(rows.map((r) => r.status)).toEqual(['pass', 'pass']);
      expect((await checkReply(d.byId.get('short')!, 'hi there, a long reply', async () => sandbox)).map((r) => r.status)).toEqual(['fail', 'pass']);
    } finally {
      sandbox.dispose();
    }
    const without = await checkReply(d.byId.get('short')!, 'hi there', noSandbox);
    expect(without.map((r) => r.status)).toEqual(['no_sandbox', 'pass']);
    expect(without[0]!.detail).toBe('This point runs in the JavaScript sandbox, and the sandbox could not start in this browser (WebAssembly is disabled): "Try it" grades it on the server, or run `assay check`.');
    expect(checkSummary(without)).toBe('1 of 1 checked point pass; 1 needs the sandbox.');
  });

  it('says where the draft is broken instead of checking it', () => {
    expect(draftPrompts('title: [', 'blueprints/x.yml')).toEqual({ ok: false, message: expect.stringMatching(/^Fix the draft first: blueprints\/x\.yml:\d+:\d+: /) });
    expect(draftPrompts('  ', 'blueprints/x.yml')).toEqual({ ok: false, message: 'The draft is empty: write or load a blueprint first.' });
  });

  it("cites the name the editor shows, an example's path included", () => {
    const d = draftPrompts('title: T\n---\n- prompt: Hi\n  should:\n    - $contains: [1, 2]\n', 'blueprints/examples/pasta-alternative-paths.yml');
    expect(d).toEqual({ ok: false, message: expect.stringMatching(/^Fix the draft first: blueprints\/examples\/pasta-alternative-paths\.yml:5:\d+: /) });
  });

  it('names points and OR paths as the run pages do: pointLabel and pathNames, never the parser ids', async () => {
    const d = draftPrompts(PASTA, 'blueprints/examples/pasta-alternative-paths.yml');
    if (!d.ok) throw new Error(d.message);
    const rows = await checkReply(d.byId.get('pasta-dinner')!, 'Try this pasta: what kind of sauce do you like?', noSandbox);
    expect(rows.map((r) => [r.text, r.pathLabel])).toEqual([
      ['Is friendly and on topic', null],
      ['Provides a specific recipe', 'Path 1'],
      ['Includes an ingredients list', 'Path 1'],
      ['$contains: pasta', 'Path 1'],
      ['Asks about dietary preferences or available ingredients', 'Path 2'],
      ['$contains_any_of: “what kind”, “do you have”, “preference”, “allerg”', 'Path 2'],
    ]);
    // the same words as the run pages' labels of the same stored points
    const prompt = d.byId.get('pasta-dinner')!;
    const names = pathNames(prompt.points.map((p) => p.path));
    expect(rows.map((r) => r.text)).toEqual(prompt.points.map((p) => pointLabel(p)));
    expect(rows.map((r) => r.pathLabel)).toEqual(prompt.points.map((p) => (p.path === null ? null : names.get(p.path))));
    const swap = await checkReply(d.byId.get('vegan-swap')!, 'Use tofu, no pancetta.', noSandbox);
    expect(swap.at(-1)).toMatchObject({ text: '$icontains_word: pancetta', source: 'should_not', status: 'fail' });
  });
});
