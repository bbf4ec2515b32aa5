import { describe, expect, it } from 'vitest';
import { planSplit, readSplitFile } from './index';
import { fortyCaseSuite, suiteCase } from '@/testing/split-suite';

const SETTINGS = { test_share: 0.25, seed: 7, min_per_side: 2 };

function split(text: string, overrides = SETTINGS) {
  return planSplit([{ file: 'suite.yaml', text, defaultSuite: 'suite' }], overrides);
}

function sidesByLineage(plan: ReturnType<typeof planSplit>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const c of plan.cases) out.set(c.lineage!, (out.get(c.lineage!) ?? new Set()).add(c.side ?? 'none'));
  return out;
}

describe('assay split on a 40-case suite', () => {
  const first = split(fortyCaseSuite());

  it('gives each stratum round(test_share × lineages) test lineages', () => {
    expect(first.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(first.cases).toHaveLength(40);
    // 8 × 0.25 = 2; 6 × 0.25 = 1.5 → 2; 4 × 0.25 = 1; 2 × 0.25 = 0.5 → 1.
    expect(first.outcome.strata.map((s) => [s.value, s.lineages, s.test, s.dev, Number(s.share.toFixed(3))])).toEqual([
      ['billing', 8, 2, 6, 0.25],
      ['privacy', 6, 2, 4, 0.333],
      ['refunds', 4, 1, 3, 0.25],
      ['smalltalk', 2, 1, 1, 0.5],
    ]);
    expect(first.cases.filter((c) => c.side === 'test')).toHaveLength(12); // 6 lineages × 2 cases
  });

  it('never splits a lineage: root and derived case are on one side', () => {
    for (const [lineage, sides] of sidesByLineage(first)) expect([lineage, sides.size]).toEqual([lineage, 1]);
  });

  it('warns for each stratum below min_per_side on a side, at its first case', () => {
    const warnings = first.issues.filter((i) => i.severity === 'warning');
    expect(warnings.map((w) => [w.line, w.message])).toEqual([
      [expect.any(Number), 'stratum category=refunds of suite `support` has 1 lineage on the test side and 3 on the dev side, below min_per_side 2'],
      [expect.any(Number), 'stratum category=smalltalk of suite `support` has 1 lineage on the test side and 1 on the dev side, below min_per_side 2'],
    ]);
    const refunds = readSplitFile('suite.yaml', fortyCaseSuite(), 'x').cases.find((c) => c.id === 'refunds-1')!;
    expect(warnings[0]!.line).toBe(refunds.loc.line);
  });

  it('is deterministic for a seed, and another seed picks other lineages', () => {
    const again = split(fortyCaseSuite());
    expect(again.cases.map((c) => c.side)).toEqual(first.cases.map((c) => c.side));
    const other = split(fortyCaseSuite(), { ...SETTINGS, seed: 8 });
    expect(other.cases.map((c) => c.side)).not.toEqual(first.cases.map((c) => c.side));
    expect(other.outcome.strata.map((s) => s.test)).toEqual([2, 2, 1, 1]);
  });

  it('writes split: into every case and a second run moves nothing', () => {
    const written = first.files[0]!.after;
    expect(first.files[0]!.written).toBe(40);
    expect(written.startsWith('# Support questions (kept by the split)\nname: support\ncases:\n  - id: billing-1\n    split: ')).toBe(true);
    const second = split(written);
    expect(second.files[0]!.written).toBe(0);
    expect(second.files[0]!.after).toBe(written);
    expect(second.cases.map((c) => c.side)).toEqual(first.cases.map((c) => c.side));
  });

  it('after adding cases, moves nothing, seals a case derived from a sealed lineage and fills a stratum up to its target', () => {
    const written = first.files[0]!.after;
    const sealed = first.cases.find((c) => c.side === 'test' && c.category === 'billing')!;
    const open = first.cases.find((c) => c.side === 'dev' && c.category === 'billing')!;
    const added = [
      // derived from a sealed case, under a new lineage name: still the sealed lineage
      suiteCase('billing-new-derived', 'billing', { lineage: 'billing-new-derived', derived_from: sealed.id! }),
      // a new case of a dev lineage (same lineage name)
      suiteCase('billing-new-sibling', 'billing', { lineage: open.lineage! }),
      // four new refunds lineages: 8 lineages → target 2, one already test → exactly one new test
      ...[1, 2, 3, 4].map((n) => suiteCase(`refunds-new-${n}`, 'refunds')),
    ];
    const grown = split(`${written}${added.join('\n')}\n`);
    expect(grown.issues.filter((i) => i.severity === 'error')).toEqual([]);
    // every old case keeps its side
    expect(grown.cases.slice(0, 40).map((c) => c.side)).toEqual(first.cases.map((c) => c.side));
    const side = (id: string) => grown.cases.find((c) => c.id === id)!.side;
    expect(side('billing-new-derived')).toBe('test');
    expect(side('billing-new-sibling')).toBe('dev');
    expect([1, 2, 3, 4].filter((n) => side(`refunds-new-${n}`) === 'test')).toHaveLength(1);
    expect(grown.outcome.strata.find((s) => s.value === 'refunds')).toMatchObject({ lineages: 8, test: 2, dev: 6, target: 2 });
    expect(grown.files[0]!.written).toBe(6);
    expect(grown.files[0]!.after.startsWith(written)).toBe(true);
  });
});

describe('stratify keys', () => {
  const cases = [
    suiteCase('R1-a', 'x', { rule: 'R1', expect: '{ behaviour: answer }' }),
    suiteCase('R1-b', 'x', { rule: 'R1', expect: '{ behaviour: refuse }' }),
    suiteCase('R1-c', 'y', { rule: 'R1', expect: '{ behaviour: abstain }' }),
    suiteCase('R2-a', 'y', { rule: 'R2' }),
  ];
  const text = `name: rules\ncases:\n${cases.join('\n')}\n`;

  it('rule_direction: the rule with pass (answer) or fire (refuse, abstain)', () => {
    const plan = split(text, { ...SETTINGS, stratify: { rules: 'rule_direction' } } as never);
    expect(plan.outcome.strata.map((s) => [s.key, s.value, s.lineages])).toEqual([
      ['rule_direction', 'R1:fire', 2],
      ['rule_direction', 'R1:pass', 1],
      ['rule_direction', 'R2:pass', 1],
    ]);
  });

  it('suite: one stratum; rule: by rule; another suite keeps category', () => {
    expect(split(text, { ...SETTINGS, stratify: { rules: 'suite' } } as never).outcome.strata.map((s) => [s.value, s.lineages])).toEqual([['rules', 4]]);
    expect(split(text, { ...SETTINGS, stratify: { rules: 'rule' } } as never).outcome.strata.map((s) => [s.value, s.lineages])).toEqual([['R1', 3], ['R2', 1]]);
    expect(split(text, { ...SETTINGS, stratify: { other: 'rule' } } as never).outcome.strata.map((s) => [s.value, s.lineages])).toEqual([['x', 2], ['y', 2]]);
  });
});

describe('errors, with file:line:col', () => {
  it('a lineage already on both sides is an error and nothing is written', () => {
    const text = `name: s\ncases:\n${suiteCase('a', 'x', { split: 'test' })}\n${suiteCase('a2', 'x', { lineage: 'a', split: 'dev' })}\n${suiteCase('b', 'x')}\n`;
    const plan = split(text);
    expect(plan.files).toEqual([]);
    const error = plan.issues.find((i) => i.severity === 'error')!;
    expect([error.file, error.line, error.col]).toEqual(['suite.yaml', 3, 5]);
    expect(error.message).toBe('lineage `a` is on both sides: this case is `split: test`, suite.yaml:9:5 is `split: dev`');
  });

  it('an unknown derived_from, a bad split value, and a case with neither id nor lineage', () => {
    const text = `name: s\ncases:\n  - id: a\n    lineage: a\n    derived_from: nowhere\n    turns: [{ prompt: hi }]\n  - id: b\n    split: maybe\n    turns: [{ prompt: hi }]\n  - turns: [{ prompt: hi }]\n`;
    const errors = split(text).issues.filter((i) => i.severity === 'error').map((i) => `${i.line}:${i.col} ${i.message}`);
    expect(errors).toEqual([
      '8:12 `split` must be dev or test, not "maybe"',
      '10:5 this case has no `id` and no `lineage`, so it has no lineage to split by',
      '3:5 `derived_from: nowhere` names no case',
    ]);
  });

  it("a project file's bad split settings are an error at the bad value", () => {
    const project = 'name: p\nsuites:\n  support: suites/*.yaml\nsplit:\n  seed: 1\n  test_share: 2\n';
    const plan = planSplit([{ file: 'project.yaml', text: project, defaultSuite: 'p' }, { file: 'suite.yaml', text: fortyCaseSuite(), defaultSuite: 's' }]);
    expect(plan.files).toEqual([]);
    expect(plan.issues[0]).toMatchObject({ file: 'project.yaml', line: 6, col: 15, severity: 'error' });
    expect(plan.issues[0]!.message).toMatch(/^`split\.test_share`: /);
  });

  it('a YAML syntax error is reported at its position', () => {
    const plan = split('name: s\ncases:\n  - id: a\n\tlineage: a\n');
    expect(plan.issues[0]).toMatchObject({ code: 'syntax', line: 4, col: 1 });
    expect(plan.files).toEqual([]);
  });
});
