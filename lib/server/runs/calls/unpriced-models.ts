/**
 * A cost cap is only as good as the prices behind it. A call whose model has no known price (not
 * in the list-price table, and no provider-reported charge) costs an unknown amount; counted as $0
 * it would let a `--max-cost` run spend without limit. So a run with a cost cap refuses to start
 * when any model it would call (graded model or judge) is priced nowhere, and says which and what
 * to do instead, before anything is stored.
 */
import type { RunSettings } from '@/lib/core';
import { unpricedModelIds } from '../../providers';
import { RunConfigError } from '../engine/errors';

/** The model ids of a run (graded models, then judges) whose calls would cost an unknown amount, each once. */
export function unpricedModels(settings: Pick<RunSettings, 'models' | 'judges' | 'customModels'>): string[] {
  return unpricedModelIds([...settings.models, ...settings.judges.map((j) => j.model)], Object.keys(settings.customModels));
}

/** Throws the refusal for a capped run with unpriced models; nothing when the run has no cap or every price is known. */
export function refuseUnpricedUnderCostCap(settings: Pick<RunSettings, 'models' | 'judges' | 'customModels'>, maxCostUsd: number | null | undefined): void {
  if (maxCostUsd === null || maxCostUsd === undefined) return;
  const unpriced = unpricedModels(settings);
  if (unpriced.length === 0) return;
  throw new RunConfigError(
    `the run has a cost cap ($${maxCostUsd}), but no price is known for ${unpriced.join(', ')}: their calls would cost an unknown amount, ` +
      `so the cap could not be kept. Drop the cost cap (--max-cost) and bound the run with --max-calls instead, or use models whose prices ` +
      `are known (lib/server/providers/cost.ts lists them; OpenRouter models report their own cost).`,
  );
}
