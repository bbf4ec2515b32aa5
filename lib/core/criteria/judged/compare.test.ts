import { describe, expect, it } from 'vitest';
import { compareStructured, compareSubstance } from './compare';
import { evidenceOf, scriptedJudge } from './scripted-judge.testkit';

describe('compare.substance', () => {
  const ev = evidenceOf({ reply: 'Six weeks.', variants: { informal: { reply: 'You have 6 weeks.' }, formal: { reply: 'Four weeks.' } } });
  const judge = () =>
    scriptedJudge([
      { when: /6 weeks/, answer: { true: 0.9, false: 0.1 } },
      { when: /Four weeks/, answer: { true: 0.2, false: 0.8 } },
    ]);

  it('scores the share of variants with the same substance: 1 of 2 = 0.5', async () => {
    const j = judge();
    const v = await compareSubstance.evaluate(ev, {}, { judge: j });
    expect(v).toMatchObject({ status: 'fail', score: 0.5, detail: '1 of 2 variants give the same substance (50%; needs 100%)' });
    expect(v.data).toEqual({ variants: [{ variant: 'informal', same: true, p_same: 0.9 }, { variant: 'formal', same: false, p_same: 0.2 }] });
    expect(j.asked[0]!.prompt).toContain('<FIRST>\nSix weeks.\n</FIRST>\n\n<SECOND>\nYou have 6 weeks.\n</SECOND>');
    expect((await compareSubstance.evaluate(ev, { min_share: 0.5 }, { judge: judge() })).status).toBe('pass');
    expect(await compareSubstance.evaluate(ev, { variants: ['informal'] }, { judge: judge() })).toMatchObject({ status: 'pass', score: 1 });
  });

  it('is n/a without variants; an error for a missing or failed variant, or without a judge', async () => {
    expect((await compareSubstance.evaluate(evidenceOf({ reply: 'x' }), {}, { judge: judge() })).status).toBe('not_applicable');
    expect(await compareSubstance.evaluate(ev, { variants: ['casual'] }, { judge: judge() })).toMatchObject({ status: 'error', detail: 'compare.substance: no variant named "casual" (the prompt\'s variants: informal, formal)' });
    const failed = evidenceOf({ reply: 'x', variants: { informal: { reply: '', error: 'HTTP 500 from the system' } } });
    expect(await compareSubstance.evaluate(failed, {}, { judge: judge() })).toMatchObject({ status: 'error', detail: 'compare.substance: variant "informal" failed: HTTP 500 from the system' });
    expect((await compareSubstance.evaluate(ev, {}, {})).status).toBe('error');
  });
});

describe('compare.structured', () => {
  const body = { decision: 'refuse', refusal: { code: 'out_of_scope' }, text: 'Nee.' };

  it('compares values at dotted paths, with no judge (2 of 3 match = 0.667)', async () => {
    const ev = evidenceOf({
      reply: 'Nee.',
      structured: body,
      variants: {
        a: { reply: 'Nee!', structured: { ...body, text: 'Nee!' } },
        b: { reply: 'Ja.', structured: { ...body, decision: 'answer' } },
        c: { reply: 'Nee.', structured: { text: 'x', refusal: { code: 'out_of_scope' }, decision: 'refuse' } },
      },
    });
    const v = await compareStructured.evaluate(ev, { paths: ['decision', 'refusal.code'] }, {});
    expect(v.status).toBe('fail');
    expect(v.score).toBeCloseTo(2 / 3, 12);
    expect(v.data).toEqual({ variants: [{ variant: 'a', same: true, differs: [] }, { variant: 'b', same: false, differs: ['decision'] }, { variant: 'c', same: true, differs: [] }] });
    // The whole body by default: key order does not matter, a changed text does.
    const whole = await compareStructured.evaluate(ev, {}, {});
    expect(whole.data).toMatchObject({ variants: [{ same: false }, { same: false }, { same: false, differs: ['(body)'] }] });
    const same = evidenceOf({ reply: 'x', structured: { a: 1, b: [1, 2] }, variants: { v1: { reply: 'y', structured: { b: [1, 2], a: 1 } } } });
    expect(await compareStructured.evaluate(same, {}, {})).toMatchObject({ status: 'pass', score: 1 });
  });

  it('is an error when a reply is plain text', async () => {
    const ev = evidenceOf({ reply: 'x', structured: body, variants: { a: { reply: 'plain' } } });
    expect(await compareStructured.evaluate(ev, {}, {})).toMatchObject({ status: 'error', detail: 'compare.structured compares JSON replies, but variant "a" replied in plain text (use compare.substance)' });
  });
});
