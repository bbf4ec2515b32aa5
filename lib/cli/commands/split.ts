/**
 * `assay split PATH…`: assigns `split: dev|test` by lineage (lib/core/split) to the cases of
 * Assay blueprints and soev suite files, and writes the new `split:` fields into the files
 * (nothing else in them changes). Existing sides never move, so running it again after adding
 * cases only fills in the new ones. A soev project file among the paths gives the settings
 * (its `split:`); the flags override them. With `--patch` it prints a unified diff and writes
 * nothing; `--json` prints the assignment and the share per stratum.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { blueprintIdFromPath, formatIssue, isSoevProjectText, planSplit, StratifyKeySchema, type SplitPlan, type SplitSettings } from '@/lib/core';
import { displayPath, expandPaths, repoRelativePath } from '../files';
import { loadProjectFromDisk } from '../soev-files';
import { parseCommandArgs, usageError } from './usage';

const USAGE = `usage: assay split [options] PATH…

Puts each case (a blueprint prompt, a soev suite case) on the dev or test side by lineage:
a lineage and the cases derived from it stay on one side, cases with a split: keep it, and
each stratum gets round(test_share × its lineages) test lineages. Test cases are sealed.
PATH: blueprint or soev suite files, folders (searched recursively), a soev project file.
  --test-share X         share of each stratum's lineages on the test side (default 0.2)
  --seed N               the seed that orders the lineages of a stratum (default 0)
  --min-per-side N       warn when a stratum has fewer lineages on a side (default 2)
  --stratify SUITE=KEY   stratify SUITE by category (default), suite, rule or rule_direction
  --patch                print a unified diff of the changes instead of writing the files
  --json                 print {settings, strata, cases, files} as JSON
Exit status: 0 done (warnings allowed), 1 on errors in the files (nothing written), 2 on usage errors.`;

export async function splitCommand(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('split', USAGE, argv, {
    allowPositionals: true,
    options: {
      'test-share': { type: 'string' },
      seed: { type: 'string' },
      'min-per-side': { type: 'string' },
      stratify: { type: 'string', multiple: true },
      patch: { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals: paths } = parsed;
  if (paths.length === 0) return usageError('split', 'give at least one file or folder', USAGE);
  const overrides = settingsFromFlags(values);
  if (typeof overrides === 'string') return usageError('split', overrides, USAGE);

  const { files, missing } = await expandPaths(paths);
  for (const path of missing) console.error(`${path}: no such file or directory`);
  if (missing.length > 0) return 1;
  // A soev project names its suites by glob: split them too, as soev's own split does.
  for (const path of [...files]) {
    if (!/\.ya?ml$/i.test(path) || !isSoevProjectText(await readFile(path, 'utf8'), path)) continue;
    const project = await loadProjectFromDisk(path, false);
    for (const suite of project.files) {
      const suitePath = join(project.folder, suite.path);
      if (!files.some((f) => resolve(f) === resolve(suitePath))) files.push(suitePath);
    }
  }
  const inputs = await Promise.all(
    files.map(async (path) => ({ path, file: displayPath(path), text: await readFile(path, 'utf8'), defaultSuite: blueprintIdFromPath(repoRelativePath(path)) })),
  );
  const plan = planSplit(inputs, overrides);
  for (const issue of plan.issues) console.error(formatIssue(issue));
  if (plan.issues.some((i) => i.severity === 'error')) {
    console.error('assay split: nothing was written; fix the errors above and run it again.');
    return 1;
  }

  const changed = plan.files.filter((f) => f.written > 0);
  const patch = changed.map((f) => createTwoFilesPatch(`a/${f.file}`, `b/${f.file}`, f.before, f.after, '', '', { context: 3 })).join('');
  if (!values.patch) {
    for (const f of changed) await writeFile(inputs.find((i) => i.file === f.file)!.path, f.after);
  }
  if (values.json) console.log(JSON.stringify(jsonReport(plan, values.patch ? patch : null)));
  else {
    // With --patch, stdout is the diff alone (to pipe into `git apply`); the summary goes to stderr.
    if (values.patch) {
      process.stdout.write(patch);
      console.error(humanReport(plan, true));
    } else console.log(humanReport(plan, false));
  }
  return 0;
}

function settingsFromFlags(values: { 'test-share'?: string; seed?: string; 'min-per-side'?: string; stratify?: string[] }): Partial<SplitSettings> | string {
  const out: Partial<SplitSettings> = {};
  if (values['test-share'] !== undefined) {
    const share = Number(values['test-share']);
    if (!(share >= 0 && share <= 1)) return `--test-share must be a number from 0 to 1, not ${values['test-share']}`;
    out.test_share = share;
  }
  if (values.seed !== undefined) {
    if (!/^-?\d+$/.test(values.seed)) return `--seed must be a whole number, not ${values.seed}`;
    out.seed = Number(values.seed);
  }
  if (values['min-per-side'] !== undefined) {
    if (!/^\d+$/.test(values['min-per-side'])) return `--min-per-side must be a whole number ≥ 0, not ${values['min-per-side']}`;
    out.min_per_side = Number(values['min-per-side']);
  }
  if (values.stratify) {
    out.stratify = {};
    for (const item of values.stratify) {
      const [suite, key] = item.split('=');
      const parsed = StratifyKeySchema.safeParse(key);
      if (!suite || !parsed.success) return `--stratify takes SUITE=KEY with KEY one of ${StratifyKeySchema.options.join(', ')}; got ${item}`;
      out.stratify[suite] = parsed.data;
    }
  }
  return out;
}

function jsonReport(plan: SplitPlan, patch: string | null) {
  return {
    settings: plan.settings,
    strata: plan.outcome.strata,
    cases: plan.cases.map((c) => ({ file: c.file, line: c.loc.line, id: c.id, suite: c.suite, lineage: c.lineage, category: c.category, rule: c.rule, derived_from: c.derivedFrom, split: c.side, was: c.was })),
    files: plan.files.map((f) => ({ file: f.file, kind: f.kind, written: f.written })),
    warnings: plan.issues.filter((i) => i.severity === 'warning'),
    ...(patch !== null ? { patch } : {}),
  };
}

function humanReport(plan: SplitPlan, patch: boolean): string {
  const { test_share, seed, min_per_side } = plan.settings;
  const lines = [`split: test_share ${test_share}, seed ${seed}, min_per_side ${min_per_side}`];
  for (const s of plan.outcome.strata) {
    lines.push(`  ${s.suite}  ${s.key}=${s.value}: ${s.lineages} lineage${s.lineages === 1 ? '' : 's'}, ${s.test} test / ${s.dev} dev, test share ${s.share.toFixed(2)} (target ${s.target})`);
  }
  const written = plan.files.reduce((n, f) => n + f.written, 0);
  const files = plan.files.filter((f) => f.written > 0).length;
  const sealed = plan.cases.filter((c) => c.side === 'test').length;
  lines.push(`${plan.cases.length} cases, ${sealed} on the test side (sealed); ${written} new split: field${written === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}${patch ? ' (not written: --patch)' : ''}`);
  return lines.join('\n');
}
