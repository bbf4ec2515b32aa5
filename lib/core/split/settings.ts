/**
 * The settings of a lineage split (soev's `SplitConfig`; docs/split.md): the share of each stratum's
 * lineages that goes to the test side, the seed that orders them, the stratify key of each suite
 * and the count per side below which a stratum warns. A soev project file holds them under
 * `split:` with soev's snake_case keys; `assay split` flags override them.
 */
import { z } from 'zod';

export const StratifyKeySchema = z.enum(['category', 'suite', 'rule', 'rule_direction']);
export type StratifyKey = z.infer<typeof StratifyKeySchema>;

export const SplitSettingsSchema = z.strictObject({
  /** The share of the lineages of each stratum that goes to the test side, 0 to 1. */
  test_share: z.number().min(0).max(1).default(0.2),
  /** The seed that orders the lineages of a stratum before the split. */
  seed: z.number().int().default(0),
  /** The stratify key of each suite, by suite name; a suite without an entry uses `category`. */
  stratify: z.record(z.string(), StratifyKeySchema).default({}),
  /** Below this many lineages on either side, a stratum's split count warns. */
  min_per_side: z.number().int().min(0).default(2),
});
export type SplitSettings = z.infer<typeof SplitSettingsSchema>;

export const DEFAULT_SPLIT_SETTINGS: SplitSettings = SplitSettingsSchema.parse({});

export function stratifyKeyOf(settings: SplitSettings, suite: string): StratifyKey {
  return settings.stratify[suite] ?? 'category';
}
