import { describe, expect, it } from 'vitest';
import type { CorpusPort } from '../types';
import { JudgeUnavailableError } from './ask';
import { nuggetsCoverage } from './nuggets';
import { evidenceOf, expectWith, scriptedJudge } from './scripted-judge.testkit';

const NUGGETS = expectWith({
  nuggets: [
    { text: 'The objection period is six weeks.', importance: 'vital', sources: ['awb/6/7'] },
    { text: 'The objection goes to the body that decided.', importance: 'vital', sources: [] },
    { text: 'An objection must be signed.', importance: 'vital', sources: [] },
    { text: 'It can be sent by post.', importance: 'okay', sources: [] },
  ],
});

// P(true) per nugget: 0.9 and 0.6 are covered, 0.3 is not.
const judge = () =>
  scriptedJudge([
    { when: /six weeks/, answer: { true: 0.9, false: 0.1 } },
    { when: /body that decided/, answer: { true: 0.6, false: 0.4 } },
    { when: /signed/, answer: { true: 0.3, false: 0.7 } },
  ]);

const corpus: CorpusPort = { has: (id) => id === 'awb/6/7', text: (id) => (id === 'awb/6/7' ? 'De termijn voor het indienen van een bezwaarschrift bedraagt zes weken.' : undefined), ids: () => ['awb/6/7'] };

describe('nuggets.coverage', () => {
  it('scores the share of vital nuggets covered (2 of 3 = 0.667) and asks nothing about okay nuggets', async () => {
    const j = judge();
    const v = await nuggetsCoverage.evaluate(evidenceOf({ reply: 'Binnen zes weken bij het bestuursorgaan.', expect: NUGGETS }), {}, { judge: j });
    expect(v.status).toBe('fail'); // default min_share 1
    expect(v.score).toBeCloseTo(2 / 3, 12);
    expect(v.detail).toBe('2 of 3 vital nuggets covered (66.7%; needs 100%)');
    expect(j.asked).toHaveLength(3);
    expect(j.asked.every((q) => q.task === 'nuggets.coverage' && q.options.join() === 'false,true')).toBe(true);
    expect(j.asked.some((q) => q.prompt.includes('post'))).toBe(false);
    expect(v.data).toMatchObject({ nuggets: [{ covered: true, p_true: 0.9 }, { covered: true, p_true: 0.6 }, { covered: false, p_true: 0.3 }] });
  });

  it('passes at min_share 0.6 and fails at 0.7', async () => {
    const ev = evidenceOf({ reply: 'x', expect: NUGGETS });
    expect((await nuggetsCoverage.evaluate(ev, { min_share: 0.6 }, { judge: judge() })).status).toBe('pass');
    expect((await nuggetsCoverage.evaluate(ev, { min_share: 0.7 }, { judge: judge() })).status).toBe('fail');
  });

  it("gives the judge each nugget's source ids, with their text when the run has the corpus", async () => {
    const j = judge();
    await nuggetsCoverage.evaluate(evidenceOf({ reply: 'x', expect: NUGGETS }), {}, { judge: j, corpus });
    const first = j.asked.find((q) => q.prompt.includes('six weeks'))!.prompt;
    expect(first).toContain('<SOURCES>\nawb/6/7: De termijn voor het indienen van een bezwaarschrift bedraagt zes weken.\n</SOURCES>');
    expect(j.asked.find((q) => q.prompt.includes('signed'))!.prompt).not.toContain('<SOURCES>');
  });

  it('is n/a without vital nuggets; an error without a judge or when one nugget gets no answer', async () => {
    const okayOnly = expectWith({ nuggets: [{ text: 'It can be sent by post.', importance: 'okay', sources: [] }] });
    expect((await nuggetsCoverage.evaluate(evidenceOf({ reply: 'x', expect: okayOnly }), {}, { judge: judge() })).status).toBe('not_applicable');
    expect((await nuggetsCoverage.evaluate(evidenceOf({ reply: 'x' }), {}, {})).status).toBe('not_applicable');
    expect(await nuggetsCoverage.evaluate(evidenceOf({ reply: 'x', expect: NUGGETS }), {}, {})).toMatchObject({ status: 'error', score: null });
    const flaky = scriptedJudge([{ when: /signed/, answer: new JudgeUnavailableError('malformed judge output') }, { answer: { true: 1 } }]);
    const v = await nuggetsCoverage.evaluate(evidenceOf({ reply: 'x', expect: NUGGETS }), {}, { judge: flaky });
    expect(v).toMatchObject({ status: 'error', score: null, detail: '1 of 3 vital nuggets got no judge answer: the judge could not answer: malformed judge output' });
  });
});
