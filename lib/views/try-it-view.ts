/**
 * What the try-it panel and its API exchange (docs/authoring.md, "Try it"): the author's allowance
 * today, the request and the started run. One schema each, parsed by the route on the way out and
 * by the panel on the way in.
 */
import { z } from 'zod';

export const TryAllowanceSchema = z.object({
  models: z.array(z.string()),
  dailyCalls: z.number().int().nonnegative(),
  dailyCostUsd: z.number().nonnegative(),
  usedCalls: z.number().int().nonnegative(),
  usedCostUsd: z.number().nonnegative(),
  /** ISO time of the next UTC midnight, when the day's budget renews. */
  resetsAt: z.string(),
});
export type TryAllowance = z.infer<typeof TryAllowanceSchema>;

export const TryRequestSchema = z.object({
  yaml: z.string().min(1, 'the draft is empty: write a blueprint first').max(1_000_000, 'the draft is over 1 MB'),
  /** The draft's path, e.g. blueprints/my-blueprint.yml (its issues name this file). */
  name: z.string().trim().min(1, 'name the draft').max(200),
  models: z.array(z.string().min(1)).min(1, 'pick at least one model').max(5, 'pick at most 5 models'),
});
export type TryRequest = z.infer<typeof TryRequestSchema>;

export const TryStartedSchema = z.object({
  runId: z.string(),
  /** The run's live progress page; the results are at `resultsUrl`. */
  progressUrl: z.string(),
  resultsUrl: z.string(),
  apiProgressUrl: z.string(),
  plannedCalls: z.number().int().nonnegative(),
});
export type TryStarted = z.infer<typeof TryStartedSchema>;

/** "12 of 50 calls left today, $0.0400 of $0.50 spent; renews at 00:00 UTC." */
export function allowanceSentence(a: TryAllowance): string {
  const left = Math.max(0, a.dailyCalls - a.usedCalls);
  return `${left} of ${a.dailyCalls} calls left today, $${a.usedCostUsd.toFixed(4)} of $${a.dailyCostUsd.toFixed(2)} spent; renews at ${a.resetsAt.slice(11, 16)} UTC.`;
}
