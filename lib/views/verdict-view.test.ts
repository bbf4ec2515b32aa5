import { describe, expect, it } from 'vitest';
import { parseBlueprint, storedPoint, StoredPointsSchema, type StoredPoint } from '@/lib/core';
import { distributionBars, judgeViews, verdictView, type VerdictInput } from './verdict-view';

/** Points as the loader makes them and the store keeps them (labels in written order). */
function points(yaml: string): StoredPoint[] {
  const r = parseBlueprint(yaml, { file: 'test.yml' });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return StoredPointsSchema.parse(JSON.parse(JSON.stringify(r.blueprint.prompts[0]!.points.map(storedPoint))));
}

const [scale, choice, levels, matches, notContains] = points(`
title: t
---
- id: p
  prompt: hi
  should:
    - "Mentions the dose"
    - choice: "What does it do?"
      options: { stated_it: 0, left_it_out: 1, hedged: 0.5, nothing_missing: null }
    - score: "How grounded?"
      levels: [Fabricated, Mostly fabricated, Mostly grounded, Fully grounded]
    - $matches: "\\\\b4\\\\s?g\\\\b"
  should_not:
    - $icontains: "8 grams"
`);

const base: VerdictInput = {
  pointIndex: 0,
  status: 'pass',
  score: 0.8125,
  kind: 'text',
  pointText: 'Mentions the dose',
  fn: null,
  weight: 1,
  gate: false,
  path: null,
  source: 'should',
  distribution: null,
  method: 'logprobs',
  detail: 'mean of 2 judges',
  reasoning: 'It does.',
  judges: null,
  spread: null,
  disagreement: false,
};

describe('verdicts as readers see them', () => {
  it('orders a judge-scale distribution from absent to fully present, whatever the stored order', () => {
    const bars = distributionBars({ CLASS_FULLY_PRESENT: 0.6, CLASS_ABSENT: 0.1, CLASS_MAJORLY_PRESENT: 0.3 }, ['CLASS_ABSENT', 'CLASS_SLIGHTLY_PRESENT', 'CLASS_PARTIALLY_PRESENT', 'CLASS_MAJORLY_PRESENT', 'CLASS_FULLY_PRESENT']);
    expect(bars?.map((b) => [b.label, b.percentLabel])).toEqual([
      ['Absent', '10%'],
      ['Majorly present', '30%'],
      ['Fully present', '60%'],
    ]);
    expect(distributionBars(null, null)).toBeNull();
    expect(distributionBars({}, null)).toBeNull();
  });

  it("lists a choice's options as written and a score's levels worst to best, never alphabetically", () => {
    // JSONB hands keys back sorted by length: the stored point's labels keep the written order
    const stored = { nothing_missing: 0.1, hedged: 0.2, stated_it: 0.3, left_it_out: 0.4 };
    expect(verdictView({ ...base, kind: 'question', pointIndex: 1, distribution: stored }, choice!).distribution?.map((b) => b.label)).toEqual(['stated it', 'left it out', 'hedged', 'nothing missing']);
    const lv = { 'Fully grounded': 0.1, Fabricated: 0.2, 'Mostly grounded': 0.3, 'Mostly fabricated': 0.4 };
    expect(verdictView({ ...base, kind: 'question', pointIndex: 2, distribution: lv }, levels!).distribution?.map((b) => b.label)).toEqual(['Fabricated', 'Mostly fabricated', 'Mostly grounded', 'Fully grounded']);
    expect(verdictView({ ...base, distribution: { CLASS_FULLY_PRESENT: 0.5, CLASS_ABSENT: 0.5 } }, scale!).distribution?.map((b) => b.label)).toEqual(['Absent', 'Fully present']);
  });

  it("reads each judge's score, approach and most likely label; a failed judge stays an error", () => {
    const judges = judgeViews(
      [
        { judge: 'a', approach: 'standard', score: 0.75, distribution: { CLASS_MAJORLY_PRESENT: 0.9, CLASS_FULLY_PRESENT: 0.1 }, method: 'logprobs', reasoning: 'ok', error: null },
        { judge: 'b', approach: 'prompt-aware', score: null, distribution: null, method: null, reasoning: null, error: 'timed out' },
      ],
      null,
    );
    expect(judges).toEqual([
      { judge: 'a', approach: 'standard', scoreLabel: '75.0', topLabel: 'Majorly present (90%)', reasoning: 'ok', error: null, methodLabel: 'log-probabilities', sampledBecause: null },
      { judge: 'b', approach: 'prompt-aware', scoreLabel: '—', topLabel: null, reasoning: null, error: 'timed out', methodLabel: null, sampledBecause: null },
    ]);
  });

  it('says per judge whether it was read from log-probabilities or sampled, how many samples and why; a mixed panel says so', () => {
    const reasoningJudge = {
      judge: 'openai:o4-mini',
      approach: 'standard' as const,
      score: 0.5,
      distribution: { CLASS_PARTIALLY_PRESENT: 2 / 3, CLASS_FULLY_PRESENT: 1 / 3 },
      method: 'samples' as const,
      sampledBecause: 'logprobs-refused' as const,
      n: 3,
      reasoning: null,
      error: null,
    };
    const logprobsJudge = { ...reasoningJudge, judge: 'openai:gpt-4o-mini', method: 'logprobs' as const, sampledBecause: undefined, n: undefined };
    const alone = verdictView({ ...base, method: 'samples', judges: [reasoningJudge] }, scale!);
    expect(alone.judges.map((j) => [j.methodLabel, j.sampledBecause])).toEqual([['3 samples', 'the model refuses log-probabilities']]);
    expect(alone.methodLabel).toBe('estimated from sampled answers (3 samples per judge)');
    expect(alone.mixedMethods).toBeNull();
    const mixed = verdictView({ ...base, method: null, judges: [reasoningJudge, logprobsJudge] }, scale!);
    expect(mixed.mixedMethods).toBe('Judges used different methods: openai:o4-mini 3 samples, openai:gpt-4o-mini log-probabilities.');
    expect(mixed.judges.map((j) => j.methodLabel)).toEqual(['3 samples', 'log-probabilities']);
  });

  it('labels points as text: a regex once-escaped, a should_not function as "must not" without its not_', () => {
    const m = verdictView({ ...base, kind: 'function', pointIndex: 3, pointText: 'matches("\\\\b4\\\\s?g\\\\b")', detail: 'matches: no match' }, matches!);
    expect(m.text).toBe('$matches: \\b4\\s?g\\b');
    expect(m).toMatchObject({ mustNot: false, direction: null, detail: 'matches: no match' });
    const n = verdictView({ ...base, kind: 'function', pointIndex: 4, source: 'should_not', detail: 'icontains "8 grams": no' }, notContains!);
    expect(n.text).toBe('$icontains: 8 grams');
    expect(n.mustNot).toBe(true);
    expect(n.direction).toMatch(/100 means it is absent/);
  });

  it('shows an error as an error with its reason, and not-applicable as n/a, never as a 0', () => {
    const err = verdictView({ ...base, kind: 'function', status: 'error', score: null, reasoning: null, detail: 'js failed: SyntaxError: unexpected token' }, null);
    expect(err).toMatchObject({ statusLabel: 'Error', scoreLabel: 'error', detail: 'js failed: SyntaxError: unexpected token', text: 'Mentions the dose' });
    expect(verdictView({ ...base, status: 'not_applicable', score: null }, scale!).scoreLabel).toBe('n/a');
    const ok = verdictView({ ...base, spread: 0.1234, judges: [judge('j:a', 0.75), judge('j:b', 0.875)], weight: 2, gate: true, detail: '' }, scale!);
    expect(ok).toMatchObject({ anchor: 'point-0', scoreLabel: '81.3', weightLabel: 'weight 2', gate: true, answersLabel: 'judges answered 75.0 and 87.5', detail: null });
    expect(ok.spreadLabel).toMatch(/12\.3 points/);
  });
});

/** A judge's stored record with the value it gave (null: it found the question does not apply). */
const judge = (id: string, score: number | null, error: string | null = null) => ({ judge: id, approach: 'standard' as const, score, distribution: null, method: 'logprobs' as const, reasoning: null, error });

describe('no verdict carries an agreement statistic: the judges’ answers and their spread instead', () => {
  const agreementKeys = (v: object) => Object.keys(v).filter((k) => /alpha|^agreement|krippendorff/i.test(k));

  it('two judges who both gave 92 read as two answers of 92 with no spread, not as an α', () => {
    const v = verdictView({ ...base, score: 0.92, judges: [judge('j:a', 0.92), judge('j:b', 0.92)], spread: 0 }, scale!);
    expect(agreementKeys(v)).toEqual([]);
    expect(JSON.stringify(v)).not.toMatch(/α|alpha/i);
    expect(v).toMatchObject({ answersLabel: 'judges answered 92.0 and 92.0', spreadLabel: "judges' spread 0.0 points (standard deviation)", disagreement: false });
  });

  it('lists every judge’s answer, a failed one as an error and one finding it not applicable as n/a', () => {
    const v = verdictView({ ...base, judges: [judge('j:a', 1), judge('j:b', null), judge('j:c', null, 'timed out')], spread: 0 }, scale!);
    expect(v.answersLabel).toBe('judges answered 100.0, n/a and error');
    const none = verdictView({ ...base, judges: [judge('j:a', null, 'timed out')], spread: null }, scale!);
    expect(none).toMatchObject({ answersLabel: null, spreadLabel: null });
  });

  it('a function’s ($js, regex) or a check’s verdict shows no answers, no spread and no disagreement', () => {
    for (const kind of ['function', 'correct']) {
      // even with a stray spread or flag on the row, nothing about judges is shown
      const v = verdictView({ ...base, kind, fn: 'js', judges: null, spread: 0, disagreement: true }, null);
      expect(agreementKeys(v)).toEqual([]);
      expect(v, kind).toMatchObject({ answersLabel: null, spreadLabel: null, disagreement: false, judges: [] });
    }
  });
});
