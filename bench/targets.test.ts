import { describe, expect, it } from 'vitest';
import { formatTargets, type Target } from './targets';

describe('formatTargets', () => {
  it('marks each figure met or missed against its goal, one row each', () => {
    const rows: Target[] = [
      { name: 'loader vs js-yaml', value: 1.04, unit: '×', goal: '≤ 1.1', met: true },
      { name: 'verdict writes vs COPY', value: 0.62, unit: '×', goal: '≥ 0.8', met: false, note: 'server' },
    ];
    const out = formatTargets(rows).split('\n');
    expect(out[0]).toBe('Targets:');
    expect(out[1]).toMatch(/^ {2}met +loader vs js-yaml +1\.04 × +≤ 1\.1$/);
    expect(out[2]).toMatch(/^ {2}MISSED +verdict writes vs COPY +0\.62 × +≥ 0\.8 +server$/);
  });
  it('leaves the status of a figure without a goal blank', () => {
    const out = formatTargets([
      { name: 'judge calls per reply', value: 1.05, unit: 'calls', goal: '—', met: true },
      { name: 'loader', value: 2.4, unit: '×', goal: '≤ 1.1', met: false },
    ]).split('\n');
    expect(out[1]).toMatch(/^ {2} {6} {2}judge calls per reply +1\.05 calls +—$/);
    expect(out[2]).toMatch(/^ {2}MISSED {2}loader/);
  });
  it('prints nothing when no bench recorded a target', () => {
    expect(formatTargets([])).toBe('');
  });
});
