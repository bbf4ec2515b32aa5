/**
 * A run's cost as pages and the CLI say it. The stored figure sums the calls whose price is known;
 * calls to a model priced nowhere (lib/server/providers/cost.ts) are not in it, so the figure is
 * shown with "unknown" and those models named, never as a total that counted them as $0.
 */
import { formatUsd } from './format';

/**
 * The one place a cost becomes words, on every page and in the CLI, so a reader can tell apart:
 *  - an unknown price: "unknown" (`usd` null: a call priced nowhere), with the models named when
 *    the figure left some out (`unpricedModels`: run-unpriced.ts), and beside what the rest cost;
 *  - a true zero: "$0" (no call was made: the response cache, a fixture);
 *  - a tiny positive: "<$0.0001", never rounded down to $0.
 */
export function costLabel(usd: number | null, unpricedModels: readonly string[] = []): string {
  const unknown = unpricedModels.length === 0 ? 'unknown (no price known)' : `unknown (no price known for ${unpricedModels.join(', ')})`;
  if (usd === null) return unknown;
  if (unpricedModels.length === 0) return formatUsd(usd);
  // the figure holds only the priced calls: $0 of them is no figure at all
  return usd === 0 ? unknown : `${formatUsd(usd)} + ${unknown}`;
}
