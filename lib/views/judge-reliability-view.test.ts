import { describe, expect, it } from 'vitest';
import { ALPHA_MIN_UNITS, judgeReliability, type JudgedVerdict } from '@/lib/core';
import { judgePanelView, modelReliabilityRows, pooledReliabilityRows, reliabilityLine } from './judge-reliability-view';

const J1 = 'openai:gpt-4.1-mini';
const J2 = 'openrouter:qwen/qwen-2.5-72b-instruct';
const verdict = (modelId: string, a: number | null, b: number | null, disagreement = false): JudgedVerdict => ({
  modelId,
  disagreement,
  judges: [
    { judge: J1, approach: 'standard', score: a },
    { judge: J2, approach: 'prompt-aware', score: b },
  ],
});
// four verdicts of gpt-4o; five times over they are the pooled example of judge-reliability.test.ts (20 units, α = 0.675)
const FOUR = [verdict('openrouter:openai/gpt-4o', 0, 0.5, true), verdict('openrouter:openai/gpt-4o', 1, 1), verdict('openrouter:openai/gpt-4o', 0, 0), verdict('openrouter:openai/gpt-4o', 1, 0.5, true)];
const TWENTY = Array.from({ length: 5 }, () => FOUR).flat();
const NAMES = new Map([['openrouter:openai/gpt-4o', 'GPT-4o']]);
/** An α number as a page would print it: "α 0.93", "α −0.12". */
const ALPHA_NUMBER = /α\s*[−-]?\d/;

describe('reliabilityLine', () => {
  it('words α with its units and pairs, Krippendorff’s reading, the coverage, the disagreement share and self-judging', () => {
    expect(reliabilityLine(judgeReliability(TWENTY), { run: 'run-1' }, NAMES)).toEqual({
      judged: true,
      alphaLabel: 'α 0.68',
      alphaAttrs: { 'data-figure': 'alpha|run=run-1', 'data-value': '0.68', 'data-units': '20' },
      basisLabel: 'over 20 units · 20 pairs',
      reading: 'tentative',
      readingLabel: 'tentative (0.667 ≤ α < 0.80)',
      coverageLabel: '20 judged verdicts, 20 with ≥ 2 judges',
      assessmentsLabel: 'gpt-4.1-mini 20 · qwen-2.5-72b-instruct (prompt-aware) 20 assessments',
      disagreementLabel: '50% flagged as disagreement (10 of 20)',
      selfJudging: ['Self-judging: gpt-4.1-mini judges GPT-4o, a model of the same maker.'],
      methodologyHref: '/methodology#alpha',
    });
  });

  it('below the minimum says “too few verdicts to tell (n units)”, neutral (no reading), with no α figure', () => {
    const few = reliabilityLine(judgeReliability(FOUR), { run: 'run-1' }, NAMES);
    expect(few).toMatchObject({
      judged: true,
      alphaLabel: 'too few verdicts to tell (4 units)',
      alphaAttrs: null,
      basisLabel: null,
      reading: null,
      readingLabel: `α is shown from ${ALPHA_MIN_UNITS} verdicts with two judges’ answers`,
      disagreementLabel: '50% flagged as disagreement (2 of 4)',
    });
    // judges far apart on a few verdicts are still "too few to tell", never "not reliable"
    const apart = reliabilityLine(judgeReliability([verdict('m:x', 0, 1), verdict('m:x', 1, 0), verdict('m:x', 0, 1)]), { run: 'run-1' });
    expect(apart).toMatchObject({ alphaLabel: 'too few verdicts to tell (3 units)', reading: null });
    expect(apart.readingLabel).not.toMatch(/reliable/);
  });

  it('never prints an α number over fewer than the minimum of verdicts, one verdict included', () => {
    for (let k = 0; k < ALPHA_MIN_UNITS; k++) {
      const line = reliabilityLine(judgeReliability(TWENTY.slice(0, k)), { run: 'run-1' });
      expect(line.alphaAttrs, `${k} units`).toBeNull();
      expect(JSON.stringify(line), `${k} units`).not.toMatch(ALPHA_NUMBER);
      if (k > 0) expect(line.alphaLabel).toBe(`too few verdicts to tell (${k} ${k === 1 ? 'unit' : 'units'})`);
    }
    const at = reliabilityLine(judgeReliability(TWENTY.slice(0, ALPHA_MIN_UNITS)), { run: 'run-1' });
    expect(at.alphaAttrs).toMatchObject({ 'data-figure': 'alpha|run=run-1', 'data-units': String(ALPHA_MIN_UNITS) });
    expect(at.alphaLabel).toBe(`α ${at.alphaAttrs!['data-value']}`);
  });

  it('says why a judged level has no α, and hides itself where nothing was judged', () => {
    const one = reliabilityLine(judgeReliability([{ modelId: 'm:x', disagreement: false, judges: [{ judge: 'j:a', approach: null, score: 1 }] }]), { run: 'run-1' });
    expect(one).toMatchObject({ judged: true, alphaLabel: 'too few verdicts to tell (0 units)', alphaAttrs: null, reading: null, readingLabel: 'one judge: no two answers to compare', disagreementLabel: null });
    expect(reliabilityLine(judgeReliability([]), { run: 'run-1' }).judged).toBe(false);
  });
});

describe('judgePanelView', () => {
  it('one row per judge: assessments, leniency and distance from the others on the 0–100 scale, self-judging', () => {
    const v = judgePanelView(judgeReliability([...FOUR, verdict('anthropic:claude-3-5-sonnet-20241022', 1, null)]), { blueprintId: 'bp', runId: 'run-1' }, NAMES);
    expect(v.runHref).toBe('/runs/run-1?view=models');
    expect(v.line).toMatchObject({ alphaLabel: 'too few verdicts to tell (4 units)', alphaAttrs: null });
    expect(v.rows).toEqual([
      { id: `${J1}#standard`, label: 'gpt-4.1-mini', model: J1, approach: 'standard', assessments: '5', missing: '0', meanScore: '60.0', deviation: '25.0', deviationTitle: 'over 4 verdicts shared with another judge', selfJudging: 'judges GPT-4o (same maker)' },
      { id: `${J2}#prompt-aware`, label: 'qwen-2.5-72b-instruct (prompt-aware)', model: J2, approach: 'prompt-aware', assessments: '4', missing: '1', meanScore: '50.0', deviation: '25.0', deviationTitle: 'over 4 verdicts shared with another judge', selfJudging: null },
    ]);
  });
});

describe('judgePanelView', () => {
  it('gives the panel’s α at the blueprint’s level', () => {
    const v = judgePanelView(judgeReliability(TWENTY), { blueprintId: 'bp', runId: 'run-1' }, NAMES);
    expect(v.line.alphaAttrs).toEqual({ 'data-figure': 'alpha|blueprint=bp', 'data-value': '0.68', 'data-units': '20' });
  });
});

describe('modelReliabilityRows', () => {
  it('links each model to its page in the run, its judge panel’s α at the run and model', () => {
    const rows = modelReliabilityRows('run-1', [{ modelId: 'openrouter:openai/gpt-4o', reliability: judgeReliability(TWENTY) }], NAMES);
    expect(rows.map((r) => [r.label, r.href, r.line.alphaLabel, r.line.alphaAttrs?.['data-figure']])).toEqual([['GPT-4o', '/runs/run-1/models/openrouter%3Aopenai/gpt-4o', 'α 0.68', 'alpha|run=run-1|model=openrouter:openai/gpt-4o']]);
  });
});

describe('pooledReliabilityRows (the leaderboard)', () => {
  it('words the summed figures like a level’s own, with the self-judging rule applied to each judge', () => {
    const rows = pooledReliabilityRows(
      [
        {
          modelId: 'openai:gpt-4o-mini',
          verdicts: 14,
          pairable: 12,
          disagreements: 3,
          alpha: { kind: 'alpha', value: 0.9, units: 12, values: 24, pairs: 12 },
          stats: { units: 12, n: 24, pairs: 12, sum: 12, sumSq: 9, within: 0.75 },
          judges: [
            { id: 'openai:gpt-4o-mini#standard', model: 'openai:gpt-4o-mini', approach: 'standard', assessments: 9 },
            { id: 'openai:gpt-4.1-mini#standard', model: 'openai:gpt-4.1-mini', approach: 'standard', assessments: 10 },
          ],
        },
      ],
      new Map(),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.href).toBe('/models/openai%3Agpt-4o-mini');
    expect(rows[0]!.line).toMatchObject({
      alphaLabel: 'α 0.90',
      alphaAttrs: { 'data-figure': 'alpha|board=all|model=openai:gpt-4o-mini', 'data-value': '0.90', 'data-units': '12' },
      basisLabel: 'over 12 units · 12 pairs',
      reading: 'reliable',
      coverageLabel: '14 judged verdicts, 12 with ≥ 2 judges',
      disagreementLabel: '25% flagged as disagreement (3 of 12)',
      selfJudging: ['Self-judging: gpt-4o-mini judges gpt-4o-mini, the same model.', 'Self-judging: gpt-4.1-mini judges gpt-4o-mini, a model of the same maker.'],
    });
  });
});
