/**
 * How much an interval over few prompts can be trusted, said the same way by the CLI and every
 * page: over fewer than FEW_PROMPTS prompts it is "rough" (a bootstrap over 3 prompts can only
 * resample those 3, and reads much narrower than the truth); over fewer than
 * MIN_PROMPTS_FOR_INTERVAL there is nothing to resample, so no interval is shown at all.
 */

/** An interval over fewer prompts than this is flagged as rough. */
export const FEW_PROMPTS = 5;
/** Below this many prompts no interval is shown. */
export const MIN_PROMPTS_FOR_INTERVAL = 2;

export type SampleReading = 'none' | 'rough' | 'enough';

/** What an interval over `prompts` prompts supports. */
export function sampleReading(prompts: number): SampleReading {
  if (prompts < MIN_PROMPTS_FOR_INTERVAL) return 'none';
  return prompts < FEW_PROMPTS ? 'rough' : 'enough';
}
