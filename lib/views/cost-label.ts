/**
 * A run's cost as pages and the CLI say it. The stored figure sums the calls whose price is known;
 * calls to a model priced nowhere (lib/server/providers/cost.ts) are not in it, so the figure is
 * shown with "unknown" and those models named, never as a total that counted them as $0.
 */
import { formatUsd } from './format';

export function costLabel(usd: number, unpricedModels: readonly string[]): string {
  if (unpricedModels.length === 0) return formatUsd(usd);
  const why = `no price known for ${unpricedModels.join(', ')}`;
  return usd === 0 ? `unknown (${why})` : `${formatUsd(usd)} + unknown (${why})`;
}
