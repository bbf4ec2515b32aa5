/**
 * The run axes a blueprint asks for, with Weval's exact precedence (comparison-pipeline-service):
 *
 *   system prompts to run = `systems` when non-empty, else [the blueprint's `system`];
 *   a prompt's system prompt = the variant when `systems` is non-empty, else the prompt's own
 *     `system` when written (null = none), else the blueprint's `system`;
 *   temperatures to run = `temperatures` when non-empty, else [`temperature`] (null = provider default).
 */
import type { Blueprint, Prompt } from './schema';

export function systemPromptsToRun(bp: Pick<Blueprint, 'system' | 'systems'>): (string | null)[] {
  return bp.systems.length > 0 ? bp.systems : [bp.system];
}

/** The system prompt one prompt is sent with under variant `variantIndex` of `systemPromptsToRun`. */
export function systemPromptFor(bp: Pick<Blueprint, 'system' | 'systems'>, prompt: Pick<Prompt, 'system'>, variantIndex = 0): string | null {
  if (bp.systems.length > 0) return bp.systems[variantIndex] ?? null;
  if (prompt.system !== undefined) return prompt.system || null;
  return bp.system || null;
}

export function temperaturesToRun(bp: Pick<Blueprint, 'temperature' | 'temperatures'>): (number | null)[] {
  return bp.temperatures && bp.temperatures.length > 0 ? bp.temperatures : [bp.temperature];
}
