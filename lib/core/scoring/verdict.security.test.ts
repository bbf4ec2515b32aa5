/**
 * Issue 11, finding 10 (explanation length): a `$js` point's `explain` of 3 MB was stored in
 * full on every verdict. Core now cuts a verdict's `detail` to MAX_DETAIL_CHARS before
 * anything stores it, saying how much was cut. Before the fix the detail is 3,000,000 long.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBlueprint } from '../blueprint/parse';
import { createQuickJsSandbox, type QuickJsSandbox } from '../points/sandbox/quickjs';
import { evaluateDeterministicPoint } from './deterministic';
import { capDetail, MAX_DETAIL_CHARS } from './verdict';

let sandbox: QuickJsSandbox;
beforeAll(async () => {
  sandbox = await createQuickJsSandbox();
});
afterAll(() => sandbox.dispose());

async function grade(js: string) {
  const parsed = parseBlueprint(`title: long\n---\n- prompt: p\n  should:\n    - $js: ${JSON.stringify(js)}\n`, { file: 'long.yml' });
  if (!parsed.ok) throw new Error(parsed.errors.map((e) => e.message).join('; '));
  const v = await evaluateDeterministicPoint(parsed.blueprint.prompts[0]!.points[0]!, 'reply', { sandbox });
  if (v === 'needs-judge') throw new Error('no judge');
  return v;
}

describe('verdict explanations are capped (finding 10)', () => {
  it('a 3 MB $js explanation is stored as 2,000 characters and a note of the rest', async () => {
    const v = await grade("return { score: 1, explain: 'x'.repeat(3000000) }");
    expect(v.status).toBe('pass');
    expect(MAX_DETAIL_CHARS).toBe(2_000);
    expect(v.detail).toBe(`${'x'.repeat(2_000)}… (2998000 characters more)`);
  });

  it('so is a 3 MB error message thrown by the code', async () => {
    const v = await grade("throw new Error('e'.repeat(3000000))");
    expect(v.status).toBe('error');
    expect(v.detail.length).toBeLessThan(MAX_DETAIL_CHARS + 40);
    expect(v.detail).toMatch(/… \(\d+ characters more\)$/);
  });

  it('never splits a surrogate pair, and leaves short details alone', () => {
    const emoji = `${'a'.repeat(MAX_DETAIL_CHARS - 1)}😀tail`;
    expect(capDetail(emoji)).toBe(`${'a'.repeat(MAX_DETAIL_CHARS - 1)}… (6 characters more)`);
    expect(capDetail('short')).toBe('short');
  });
});
