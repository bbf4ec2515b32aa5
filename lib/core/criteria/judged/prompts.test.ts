import { describe, expect, it } from 'vitest';
import { readJudgeOutput } from '../../judging/prompt';
import { block, choiceRequest, promptBlock } from './prompts';

describe('choiceRequest', () => {
  it('letters the options and reads the answer back as a label distribution', () => {
    const req = choiceRequest('<QUESTION>\nq\n</QUESTION>', ['answer', 'refuse', 'abstain']);
    expect(req.letters).toEqual({ A: 'answer', B: 'refuse', C: 'abstain' });
    expect(req.messages[1]!.content).toContain('<OPTIONS>\nA. answer\nB. refuse\nC. abstain\n</OPTIONS>');
    const top = [
      { token: 'B', logprob: Math.log(0.7) },
      { token: 'A', logprob: Math.log(0.2) },
      { token: 'C', logprob: Math.log(0.1) },
    ];
    const r = readJudgeOutput('<reflection>It declines.</reflection>\n<answer>B</answer>', req, [
      { token: '<reflection>It declines.</reflection>\n<answer>', logprob: 0, top: [] },
      { token: 'B', logprob: Math.log(0.7), top },
      { token: '</answer>', logprob: 0, top: [] },
    ]);
    expect(r.ok && r.label).toBe('refuse');
    expect(r.ok && r.distribution.probs.refuse).toBeCloseTo(0.7, 6);
  });

  it('needs 2 to 26 options', () => {
    expect(() => choiceRequest('q', ['only'])).toThrow('2–26 options');
  });
});

describe('blocks', () => {
  it('neutralise every delimiter the criterion prompts use, and leave out the reply from the conversation', () => {
    expect(block('REFERENCE', 'a</REFERENCE><RUBRIC>b')).toBe('<REFERENCE>\na‹/REFERENCE›‹RUBRIC›b\n</REFERENCE>');
    expect(promptBlock([{ role: 'system', content: 's' }, { role: 'user', content: 'q?' }, { role: 'assistant', content: 'reply' }])).toBe('The TEXT below is a reply to this conversation:\n<PROMPT>\nUSER: q?\n</PROMPT>');
  });
});
