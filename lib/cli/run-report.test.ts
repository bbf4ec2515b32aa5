import { describe, expect, it } from 'vitest';
import type { RunResultsDocument } from '@/lib/server/runs/chat/results';
import { judgeReliability, type CalibrationFigures } from '@/lib/core';
import { judgedCheckLine } from '@/lib/views/human-figures-view';
import { runReport } from './run-report';

const cov = { judgedVerdicts: 2, judgedScored: 2, deterministicVerdicts: 2, deterministicScored: 2 };
const score = (model: string, extra: Partial<RunResultsDocument['run']['scores'][number]> = {}) => ({
  model, score: 0.7345, ciLow: 0.6, ciHigh: 0.8, errors: 0, replies: 6, failedReplies: 0, scoredPrompts: 6, coverage: cov, withheld: null,
  interval: null, scoredAttempts: 6, passThreshold: null, passAtK: null, ...extra,
});
const doc = (run: Partial<RunResultsDocument['run']>): RunResultsDocument => ({
  run: {
    id: 'run1', blueprintId: 'bp', status: 'completed', identityHash: 'h', models: [], judges: [], error: null, rescoreOf: null,
    replies: { done: 12, total: 12, errors: 0, outcomes: { refused: 0, cutOff: 0 } }, verdicts: { done: 24, total: 24, errors: 0 }, providerCalls: 36, cacheHits: 0, costUsd: 0, unpricedModels: [],
    batch: { mode: 'live', lines: 0, batches: 0, savedUsd: 0 },
    startedAt: null, finishedAt: null, scores: [score('openai:a'), score('openai:b')], judgeReliability: { run: judgeReliability([]), byModel: [] }, sealedPrompts: 0, groups: [], ...run,
  },
  results: [],
});
const none = { replies: [], verdicts: [] };
const noCalibration = { bins: [], ece: null, n: 0 };
const humanFigures: CalibrationFigures = {
  kind: 'calibration', blueprintId: 'bp', labels: 12, items: 10, reviewers: 2, humanAlpha: { value: null, low: null, high: null, items: 0 },
  rows: [{ rater: 'panel', kind: 'panel', items: 10, labels: 12, alpha: { value: 0.81, low: 0.7, high: 0.9 }, kappa: { value: 0.7, low: 0.5, high: 0.8 }, bias: null, calibration: noCalibration }],
  models: [], level: 0.95, resamples: 1000, seed: 1,
};

describe('the end-of-run report', () => {
  it('says how far the judges agree with people where people labelled this blueprint, and nothing where not', () => {
    const check = judgedCheckLine(humanFigures);
    const r = runReport(doc({}), none, 'http://assay.example/', [], check);
    expect(r.lines).toContain('people: judges checked against 12 human labels: α 0.81 [0.70–0.90] (http://assay.example/blueprints/bp#human-calibration)');
    expect(runReport(doc({}), none, 'http://assay.example/').lines.join('\n')).not.toMatch(/people:|human label/);
  });

  it('says what batch mode saved, and nothing about batches for a live run', () => {
    const batch = runReport(doc({ costUsd: 0.5, batch: { mode: 'batch', lines: 36, batches: 2, savedUsd: 0.5 } }), none, 'http://assay.example/');
    expect(batch.lines).toContain('  batch mode: 36 calls in 2 provider batches, saved $0.50 against live prices');
    expect(runReport(doc({}), none, 'http://assay.example/').lines.join('\n')).not.toMatch(/batch/);
  });

  it('says the cost is unknown for models priced nowhere, never a total that counts them as $0', () => {
    const line = (run: Partial<RunResultsDocument['run']>) => runReport(doc(run), none, 'http://assay.example/').lines.find((l) => l.includes('provider calls'));
    expect(line({ costUsd: 0.4 })).toBe('  provider calls: 36 (0 answered from the cache), cost $0.40');
    expect(line({ costUsd: 0.4, unpricedModels: ['openai:house-judge'] })).toBe('  provider calls: 36 (0 answered from the cache), cost $0.40 + unknown (no price known for openai:house-judge)');
    expect(line({ costUsd: 0, unpricedModels: ['openai:house-model', 'openai:house-judge'] })).toBe(
      '  provider calls: 36 (0 answered from the cache), cost unknown (no price known for openai:house-model, openai:house-judge)',
    );
  });

  it('prints 0–100 scores with their interval and coverage, and the run’s page; exit 0', () => {
    const r = runReport(doc({}), none, 'http://assay.example/');
    expect(r.exitCode).toBe(0);
    expect(r.lines).toContain('   73.5  60.0–80.0    openai:a  [coverage: judged 2 of 2 (100%) · deterministic 2 of 2 (100%)]');
    expect(r.lines.at(-1)).toBe('see http://assay.example/runs/run1');
    expect(r.lines.join('\n')).not.toMatch(/warning/);
    expect(r.warnings).toEqual([]);
  });

  it('says how each interval was made and what it rests on, and pass@k / pass^k where prompts had several attempts', () => {
    const r = runReport(
      doc({
        scores: [
          score('openai:a', {
            interval: { low: 0.6, high: 0.8, level: 0.95, method: 'bca-bootstrap', n: 18, clusters: 6, resamples: 1000 },
            scoredAttempts: 18,
            passThreshold: 0.5,
            passAtK: [{ k: 1, passAtK: 0.5, passHatK: 0.5, prompts: 6 }, { k: 2, passAtK: 0.75, passHatK: 0.25, prompts: 6 }],
          }),
        ],
      }),
      none,
      'http://x',
    );
    expect(r.lines).toContain('         95% CI 60.0–80.0 · 6 prompts, 18 attempts · clustered · BCa bootstrap');
    expect(r.lines).toContain('         pass@k k=1 50%, k=2 75%; pass^k 50%, 25%');
  });

  it('counts answered and failed replies so they add up, and lists each distinct error with its count', () => {
    const r = runReport(doc({ replies: { done: 12, total: 12, errors: 11, outcomes: { refused: 0, cutOff: 0 } } }), { replies: [{ message: 'set OPENAI_API_KEY', count: 11 }], verdicts: [] }, 'http://x');
    expect(r.lines).toContain('  replies:  12 of 12 done (1 answered, 11 failed)');
    expect(r.lines).toContain('  11 × set OPENAI_API_KEY');
  });

  it('says how many answered replies were refusals or cut off at the token limit', () => {
    const r = runReport(doc({ replies: { done: 12, total: 12, errors: 1, outcomes: { refused: 2, cutOff: 1 } } }), none, 'http://x');
    expect(r.lines).toContain('  replies:  12 of 12 done (11 answered, of which 2 refused, 1 cut off at the token limit, 1 failed)');
  });

  it('exits 1 for a failed run, a model whose every reply failed, or no score at all, and says why apart from the report', () => {
    const failed = runReport(doc({ status: 'failed', error: 'every reply failed (12)' }), none, 'http://x');
    expect(failed.exitCode).toBe(1);
    expect(failed.lines[0]).toBe('assay: run run1 failed: every reply failed (12)');
    expect(failed.warnings).toContain('error: run run1 ended failed: every reply failed (12)');
    const oneDown = runReport(doc({ scores: [score('openai:a'), score('openai:b', { score: null, failedReplies: 6, withheld: 'every reply failed (6)' })] }), none, 'http://x');
    expect(oneDown.exitCode).toBe(1);
    expect(oneDown.warnings).toEqual(['error: every reply of openai:b failed']);
    expect(oneDown.lines.join('\n')).not.toMatch(/^error:/m);
    const withheld = runReport(doc({ scores: [score('openai:a', { score: null, withheld: 'only 0 of 2 judged verdicts got a result (under half)' })] }), none, 'http://x');
    expect(withheld.exitCode).toBe(1);
    expect(withheld.warnings).toEqual(['error: no model has a score (see the coverage and errors above)']);
  });

  it('warns when an interval rests on fewer than 5 prompts', () => {
    const r = runReport(doc({ scores: [score('openai:a', { scoredPrompts: 3 }), score('openai:b', { scoredPrompts: 1, ciLow: null, ciHigh: null })] }), none, 'http://x');
    expect(r.warnings).toEqual(["warning: openai:a's interval rests on 3 prompts (fewer than 5): read it as rough", "warning: openai:b's score rests on 1 prompt (fewer than 5): read it as rough"]);
    expect(r.lines.join('\n')).not.toMatch(/warning/);
    expect(r.exitCode).toBe(0);
  });

  it('prints the judges’ pooled α with its coverage and disagreement, and warns of self-judging', () => {
    const judges = (a: number, b: number) => [
      { judge: 'openai:gpt-4.1-mini', approach: 'standard', score: a },
      { judge: 'openrouter:qwen/qwen-2.5-72b-instruct', approach: 'standard', score: b },
    ];
    // the pooled-α example of judge-reliability.test.ts: five times four verdicts, 20 units, α = 0.675
    const four = [[0, 0.5, true], [1, 1, false], [0, 0, false], [1, 0.5, true]].map(([a, b, d]) => ({ modelId: 'openai:gpt-4o', disagreement: d as boolean, judges: judges(a as number, b as number) }));
    const verdicts = Array.from({ length: 5 }, () => four).flat();
    const r = runReport(doc({ judgeReliability: { run: judgeReliability(verdicts), byModel: [] } }), none, 'http://x');
    expect(r.lines).toContain('judges: α 0.68 (tentative) over 20 units and 20 pairs; 20 judged verdicts (20 with ≥ 2 judges, 50% flagged as disagreement); openai:gpt-4.1-mini#standard 20, openrouter:qwen/qwen-2.5-72b-instruct#standard 20 assessments');
    // four verdicts alone are too few to tell: no α number
    const few = runReport(doc({ judgeReliability: { run: judgeReliability(four), byModel: [] } }), none, 'http://x');
    expect(few.lines).toContain('judges: too few verdicts to tell (4 units); 4 judged verdicts (4 with ≥ 2 judges, 50% flagged as disagreement); openai:gpt-4.1-mini#standard 4, openrouter:qwen/qwen-2.5-72b-instruct#standard 4 assessments');
    expect(few.lines.join('\n')).not.toMatch(/α\s*[−-]?\d/);
    expect(r.warnings).toContain('warning: self-judging: openai:gpt-4.1-mini#standard judges openai:gpt-4o (the same maker)');
    expect(r.lines.join('\n')).not.toMatch(/self-judging/);
    expect(r.exitCode).toBe(0);
  });

  it('prints the per-attempt pass rate and the scores per category and rule, where the prompts have them', () => {
    const pass = (passed: number, attempts: number) => ({ passed, attempts, rate: passed / attempts });
    const group = (key: string, score: number, low: number, high: number, prompts: number, passed: [number, number]) => ({
      key, prompts, scored: prompts, attempts: prompts * 2, score, pass: pass(...passed),
      interval: { low, high, level: 0.95, method: 'bca-bootstrap' as const, n: prompts * 2, clusters: prompts, resamples: 1000 },
    });
    const groups = [{ model: 'soev:bot', pass: pass(7, 10), byCategory: [group('deposit', 0.875, 0.75, 1, 2, [3, 4])], byRule: [group('R1', 0.875, 0.75, 1, 2, [3, 4]), group('R2', 0.25, 0, 0.5, 1, [0, 2])] }];
    expect(runReport(doc({ groups }), none, 'http://assay.example/').lines).toEqual(
      expect.arrayContaining([
        '  soev:bot: attempts passed 70% (7 of 10; every criterion pass or n/a, none error)',
        '    category deposit        87.5  75.0–100.0   2 prompts, passed 3/4',
        '    rule R2                 25.0  0.0–50.0     1 prompt, passed 0/2',
      ]),
    );
    expect(runReport(doc({ groups: [{ model: 'm', pass: pass(1, 1), byCategory: [], byRule: [] }] }), none, 'http://assay.example/').lines.join('\n')).not.toMatch(/attempts passed/);
  });
});
