import { describe, expect, it } from 'vitest';
import { groupsView } from './groups-view';

const pass = (passed: number, attempts: number) => ({ passed, attempts, rate: attempts ? passed / attempts : null });
const interval = { low: 0.959, high: 1, level: 0.95, method: 'bca-bootstrap' as const, n: 4, clusters: 2, resamples: 1000 };

describe('the category and rule tables', () => {
  it('shows each group with its score, interval, prompts and passed attempts; a missing interval as —', () => {
    const view = groupsView(
      [
        {
          model: 'soev:huurwijzer',
          pass: pass(4, 6),
          byCategory: [{ key: 'deposit', prompts: 2, scored: 2, attempts: 4, score: 0.98, interval, pass: pass(4, 4) }],
          byRule: [{ key: 'R2', prompts: 1, scored: 1, attempts: 2, score: 0.75, interval: null, pass: pass(0, 2) }],
        },
      ],
      new Map([['soev:huurwijzer', 'Huurwijzer']]),
    );
    expect(view).toEqual({
      models: [
        {
          modelId: 'soev:huurwijzer',
          label: 'Huurwijzer',
          passText: '67% (4 of 6) of attempts passed (every criterion pass or not applicable, none an error)',
          tables: [
            { axis: 'category', title: 'By category', rows: [{ key: 'deposit', score: '98.0', interval: '95.9–100.0', intervalTitle: '95% CI 95.9–100.0 · rough: only 2 prompts (under 5) · 2 prompts, 4 attempts · clustered · BCa bootstrap', prompts: '2 prompts', passed: '100% (4 of 4)' }] },
            { axis: 'rule', title: 'By rule', rows: [{ key: 'R2', score: '75.0', interval: '—', intervalTitle: 'no interval: one prompt that is not a pass rate', prompts: '1 prompt', passed: '0% (0 of 2)' }] },
          ],
        },
      ],
    });
  });

  it('is nothing when no prompt has a category or a rule', () => {
    expect(groupsView([{ model: 'm', pass: pass(1, 1), byCategory: [], byRule: [] }])).toBeNull();
  });
});
