import { describe, expect, it } from 'vitest';
import { rubricJudge } from './rubric';
import { evidenceOf, expectWith, scriptedJudge } from './scripted-judge.testkit';

describe('rubric.judge', () => {
  it('passes when "pass" is the more likely label (0.8), with the reference answer and rubric in their blocks', async () => {
    const judge = scriptedJudge([{ answer: { pass: 0.8, fail: 0.2 } }]);
    const ev = evidenceOf({ reply: 'Zes weken.', expect: expectWith({ answer: 'Six weeks from the day after the decision was sent.' }) });
    const v = await rubricJudge.evaluate(ev, { rubric: 'Names the period and when it starts.' }, { judge });
    expect(v).toMatchObject({ status: 'pass', score: null, detail: 'the judge gives the rubric pass 80%, fail 20%', data: { reference: true } });
    const prompt = judge.asked[0]!.prompt;
    expect(prompt).toContain('<REFERENCE>\nSix weeks from the day after the decision was sent.\n</REFERENCE>');
    expect(prompt).toContain('<RUBRIC>\nNames the period and when it starts.\n</RUBRIC>');
    expect(prompt).toContain('<PROMPT>\nUSER: What is the deadline to object?\n</PROMPT>');
    expect(judge.asked[0]!.options).toEqual(['fail', 'pass']);
  });

  it('an undecided judge (0.5 / 0.5) is no pass; 0.3 fails', async () => {
    for (const [p, status] of [[0.5, 'fail'], [0.3, 'fail'], [0.51, 'pass']] as const) {
      const judge = scriptedJudge([{ answer: { pass: p, fail: 1 - p } }]);
      expect((await rubricJudge.evaluate(evidenceOf({ reply: 'x' }), { rubric: 'r' }, { judge })).status).toBe(status);
    }
  });

  it('reads a named rubric from the run, and the answer parameter replaces expect.answer', async () => {
    const judge = scriptedJudge([{ answer: { pass: 1 } }]);
    const ev = evidenceOf({ reply: 'x', expect: expectWith({ answer: 'from the case' }) });
    await rubricJudge.evaluate(ev, { rubric: 'rubrics/deadline.md', answer: 'from the criterion' }, { judge, rubrics: { 'rubrics/deadline.md': 'Full rubric text.' } });
    expect(judge.asked[0]!.prompt).toContain('<RUBRIC>\nFull rubric text.\n</RUBRIC>');
    expect(judge.asked[0]!.prompt).toContain('from the criterion');
    expect(judge.asked[0]!.prompt).not.toContain('from the case');
  });

  it('is an error without a judge, and a rubric is required', async () => {
    expect((await rubricJudge.evaluate(evidenceOf({ reply: 'x' }), { rubric: 'r' }, {})).status).toBe('error');
    expect(rubricJudge.params.safeParse({}).success).toBe(false);
  });
});
