/**
 * `assay plan BLUEPRINT`: the sample-size planner (lib/core/scoring/planner.ts) on the
 * blueprint's latest completed run: the minimum detectable difference between two models at
 * the chosen power and α, and with --delta how many prompts would detect that difference.
 */
import { blueprintIdFromPath, PlanOptionsSchema, type BlueprintPlan } from '@/lib/core';
import { getBlueprintPlan } from '@/lib/server/db/queries/blueprint-plan';
import { repoRelativePath } from '../files';
import { withRunDatabase } from '../with-run-database';
import { parseCommandArgs, usageError } from './usage';

const USAGE = `usage: assay plan BLUEPRINT [options]

From BLUEPRINT's latest completed run (its prompt scores per model): the smallest difference
between two models its prompts can detect (the MDE), and how many prompts a chosen difference
would need: n = (z₁₋α/₂ + z₁₋β)² ω² / δ², ω² = σ_A² + σ_B² − 2ρσ_Aσ_B.
BLUEPRINT is a blueprint id (demo__everyday-answers) or its file (blueprints/a/b.yml → a__b).
  --delta D   a difference of interest on the 0–1 score scale (e.g. 0.05): prompts needed for it
  --power P   the power 1 − β (default 0.8)
  --alpha A   the two-sided significance level (default 0.05)
  --json      print {blueprint, title, run, plan} as JSON
Exit status: 0 with a plan; 1 for an unknown blueprint or one with no completed run; 2 on usage errors.`;

/** A blueprint id, or a file path turned into the id Weval derives from it. */
function blueprintIdOf(arg: string): string {
  return /\.(ya?ml|json)$/i.test(arg) ? blueprintIdFromPath(repoRelativePath(arg)) : arg;
}

function numberOption(name: string, raw: string | undefined): number | undefined | string {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  return raw.trim() !== '' && Number.isFinite(n) ? n : `--${name}: expected a number, got "${raw}"`;
}

const pct = (x: number) => `${(x * 100).toFixed(1)} points`;
const num = (x: number | null, digits = 3) => (x === null ? '—' : x.toFixed(digits));

export function formatPlan(title: string, blueprintId: string, runId: string, plan: BlueprintPlan): string {
  const lines = [`${title} (${blueprintId}), from run ${runId}: ${plan.models} model${plan.models === 1 ? '' : 's'}, ${plan.prompts} scored prompts`];
  lines.push(`  spread of prompt scores     σ = ${num(plan.sd)} (mean over models)`);
  if (plan.basis === 'pairs') lines.push(`  correlation between models  ρ = ${num(plan.rho, 2)} (mean over ${plan.pairs.length} pair${plan.pairs.length === 1 ? '' : 's'})`);
  lines.push(`  spread of paired difference ω = ${num(plan.omega)}`);
  if (plan.mde === null) lines.push(`  no minimum detectable difference: ${plan.note}`);
  else lines.push(`  minimum detectable difference at ${Math.round(plan.power * 100)}% power, α = ${plan.alpha}: ${plan.mde.toFixed(3)} (${pct(plan.mde)})`);
  if (plan.delta !== null && plan.promptsNeeded !== null) lines.push(`  prompts needed to detect ${plan.delta}: ${plan.promptsNeeded} (the blueprint has ${plan.prompts})`);
  if (plan.note && plan.mde !== null) lines.push(`  note: ${plan.note}`);
  return lines.join('\n');
}

export async function planCommand(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('plan', USAGE, argv, {
    allowPositionals: true,
    options: { delta: { type: 'string' }, power: { type: 'string' }, alpha: { type: 'string' }, json: { type: 'boolean' } },
  });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) return usageError('plan', 'name one blueprint (its id or its file)', USAGE);
  const raw = { delta: numberOption('delta', values.delta), power: numberOption('power', values.power), alpha: numberOption('alpha', values.alpha) };
  for (const v of Object.values(raw)) if (typeof v === 'string') return usageError('plan', v, USAGE);
  const options = PlanOptionsSchema.safeParse({
    ...(raw.delta === undefined ? {} : { delta: raw.delta }),
    ...(raw.power === undefined ? {} : { power: raw.power }),
    ...(raw.alpha === undefined ? {} : { alpha: raw.alpha }),
  });
  if (!options.success) return usageError('plan', options.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; '), USAGE);
  const blueprintId = blueprintIdOf(positionals[0]!);

  return withRunDatabase('plan', async (db) => {
    const result = await getBlueprintPlan(db, blueprintId, options.data);
    if (!result) {
      console.error(`assay plan: no blueprint with id "${blueprintId}": give its id as on its page, or sync its source first (assay sync)`);
      return 1;
    }
    if (!result.run || !result.plan) {
      console.error(`assay plan: blueprint "${blueprintId}" has no completed run yet: run it first (assay run FILE, or from the admin page), then plan from its scores`);
      return 1;
    }
    if (values.json) console.log(JSON.stringify({ blueprint: blueprintId, title: result.title, run: result.run.runId, plan: result.plan }, null, 2));
    else console.log(formatPlan(result.title, blueprintId, result.run.runId, result.plan));
    return 0;
  });
}
