/**
 * The lineage split (soev's `SplitConfig`; docs/split.md): which cases go to the `test` side (sealed)
 * and which to `dev`, with four guarantees:
 *
 *   1. a lineage is never split: the cases of one `lineage`, and every case `derived_from` one of
 *      them, form one group and get one side;
 *   2. it is incremental: a written `split:` never moves, and a new case of a group that already
 *      has a side gets that side (a case derived from a sealed lineage is sealed);
 *   3. each stratum (per suite, by the suite's stratify key, read from the lineage's root case)
 *      gets `round(test_share × its lineages)` test lineages, as far as the lineages already on
 *      the test side allow;
 *   4. it is deterministic for a seed: new lineages are ordered by a hash of (seed, suite,
 *      lineage), not by file order, so adding a case elsewhere does not change which of the
 *      others are picked.
 *
 * A stratum with fewer than `min_per_side` lineages on either side warns.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { BlueprintIssue } from '../blueprint/errors';
import type { SplitCaseFacts, SplitSide } from './cases';
import { stratifyKeyOf, type SplitSettings, type StratifyKey } from './settings';

/** A lineage group: its cases (indexes into the input), its side and how it got it. */
export interface SplitLineage {
  /** The root case's lineage (or id). */
  name: string;
  suite: string;
  stratum: string;
  cases: number[];
  side: SplitSide | null;
  /** `kept`: every case already had this side; `inherited`: new cases took the group's side; `assigned`: chosen now. */
  how: 'kept' | 'inherited' | 'assigned' | 'conflict';
}

export interface SplitStratum {
  suite: string;
  key: StratifyKey;
  value: string;
  lineages: number;
  test: number;
  dev: number;
  /** test ÷ lineages. */
  share: number;
  /** round(test_share × lineages): the count aimed for. */
  target: number;
}

export interface SplitOutcome {
  /** The side of each input case, in input order (null only where an error left it open). */
  sides: (SplitSide | null)[];
  lineages: SplitLineage[];
  strata: SplitStratum[];
  /** Errors (nothing may be written) and warnings (min_per_side). */
  issues: BlueprintIssue[];
}

const NONE = '(none)';

export function assignSplit(cases: readonly SplitCaseFacts[], settings: SplitSettings): SplitOutcome {
  const issues: BlueprintIssue[] = [];
  const issue = (severity: BlueprintIssue['severity'], c: SplitCaseFacts, message: string, hint: string) =>
    issues.push({ severity, code: 'schema', file: c.file, line: c.loc.line, col: c.loc.col, message, hint });

  // 1. Groups: union the cases of one lineage name, and each case with the case it derives from.
  const parent = cases.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const union = (a: number, b: number) => {
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  const byId = new Map<string, number>();
  const byLineage = new Map<string, number>();
  cases.forEach((c, i) => {
    if (c.id !== null && !byId.has(c.id)) byId.set(c.id, i);
    if (c.id === null && c.lineage === null && c.derivedFrom === null) {
      issue('error', c, 'this case has no `id` and no `lineage`, so it has no lineage to split by', 'Give it an `id` (its own lineage) or a `lineage: …` shared with the cases it belongs with.');
    }
  });
  cases.forEach((c, i) => {
    const name = c.lineage ?? (c.derivedFrom === null ? c.id : null);
    if (name === null) return;
    const seen = byLineage.get(name);
    if (seen === undefined) byLineage.set(name, i);
    else union(seen, i);
  });
  cases.forEach((c, i) => {
    if (c.derivedFrom === null) return;
    const from = byId.get(c.derivedFrom);
    if (from === undefined) issue('error', c, `\`derived_from: ${c.derivedFrom}\` names no case`, 'Give the id of the case this one was derived from (in any of the files split together), or remove `derived_from`.');
    else union(from, i);
  });

  const groups = new Map<number, number[]>();
  cases.forEach((_, i) => {
    const root = find(i);
    groups.set(root, [...(groups.get(root) ?? []), i]);
  });

  // 2. Each group's root case (the first without derived_from), its stratum and its side so far.
  const sides: (SplitSide | null)[] = cases.map((c) => c.split);
  const lineages: SplitLineage[] = [];
  for (const members of groups.values()) {
    const root = cases[members.find((i) => cases[i]!.derivedFrom === null) ?? members[0]!]!;
    const name = root.lineage ?? root.id ?? `${root.file}:${root.loc.line}`;
    const key = stratifyKeyOf(settings, root.suite);
    const lineage: SplitLineage = { name, suite: root.suite, stratum: stratumValue(root, key), cases: members, side: null, how: 'assigned' };
    const written = new Set(members.map((i) => cases[i]!.split).filter((s): s is SplitSide => s !== null));
    if (written.size === 2) {
      const test = cases[members.find((i) => cases[i]!.split === 'test')!]!;
      const dev = cases[members.find((i) => cases[i]!.split === 'dev')!]!;
      issue('error', test, `lineage \`${name}\` is on both sides: this case is \`split: test\`, ${dev.file}:${dev.loc.line}:${dev.loc.col} is \`split: dev\``, 'A lineage must be on one side, or the test side leaks into development. Put every case of the lineage on the same side by hand (`assay split` never moves a written side).');
      lineage.how = 'conflict';
    } else if (written.size === 1) {
      lineage.side = [...written][0]!;
      lineage.how = members.every((i) => cases[i]!.split !== null) ? 'kept' : 'inherited';
      for (const i of members) sides[i] = lineage.side;
    }
    lineages.push(lineage);
  }

  // 3. Per stratum: new lineages, ordered by the seeded hash, fill the test side up to the target.
  const strata = new Map<string, SplitLineage[]>();
  for (const lineage of lineages) {
    const id = `${lineage.suite}\u0000${lineage.stratum}`;
    strata.set(id, [...(strata.get(id) ?? []), lineage]);
  }
  const report: SplitStratum[] = [];
  for (const members of strata.values()) {
    const { suite, stratum } = members[0]!;
    const target = Math.round(settings.test_share * members.length);
    const fresh = members.filter((l) => l.how === 'assigned').sort((a, b) => order(settings.seed, a).localeCompare(order(settings.seed, b)));
    const already = members.filter((l) => l.side === 'test').length;
    const need = Math.max(0, Math.min(fresh.length, target - already));
    fresh.forEach((lineage, n) => {
      lineage.side = n < need ? 'test' : 'dev';
      for (const i of lineage.cases) sides[i] = lineage.side;
    });
    const test = members.filter((l) => l.side === 'test').length;
    const dev = members.filter((l) => l.side === 'dev').length;
    const key = stratifyKeyOf(settings, suite);
    report.push({ suite, key, value: stratum, lineages: members.length, test, dev, share: members.length === 0 ? 0 : test / members.length, target });
    if (test < settings.min_per_side || dev < settings.min_per_side) {
      const first = cases[members[0]!.cases[0]!]!;
      issue('warning', first, `stratum ${key}=${stratum} of suite \`${suite}\` has ${test} lineage${test === 1 ? '' : 's'} on the test side and ${dev} on the dev side, below min_per_side ${settings.min_per_side}`, 'Scores on so few lineages say little: add lineages to this stratum, choose a coarser stratify key for the suite, or lower `min_per_side`.');
    }
  }
  report.sort((a, b) => a.suite.localeCompare(b.suite) || a.value.localeCompare(b.value));
  return { sides, lineages, strata: report, issues };
}

/** The stratum of a lineage, from its root case; `rule_direction` is the rule with pass (answer) or fire. */
function stratumValue(root: SplitCaseFacts, key: StratifyKey): string {
  switch (key) {
    case 'category':
      return root.category ?? NONE;
    case 'suite':
      return root.suite;
    case 'rule':
      return root.rule ?? NONE;
    case 'rule_direction':
      return `${root.rule ?? NONE}:${root.behaviour === 'answer' ? 'pass' : 'fire'}`;
  }
}

function order(seed: number, lineage: SplitLineage): string {
  return bytesToHex(sha256(utf8ToBytes(`${seed}\u0000${lineage.suite}\u0000${lineage.name}`)));
}
