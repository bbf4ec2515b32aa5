/**
 * How Assay's names become Inspect's: the model name, the log file's name, a sample's id, and
 * the stop reason. Pure.
 */
import type { InspectStopReason } from './inspect-log';

/**
 * Inspect names a model `provider/model` (`openai/gpt-4o`); Assay writes `provider:model`
 * (`openai:gpt-4o`, `openrouter:openai/gpt-4o`). Only the first `:` is the provider's
 * separator, so only it changes; our own id travels beside it in the metadata.
 */
export function inspectModelName(modelId: string): string {
  const i = modelId.indexOf(':');
  return i < 0 ? modelId : `${modelId.slice(0, i)}/${modelId.slice(i + 1)}`;
}

/** A model id as a file-name part: lower case, runs of anything but letters and digits as one `-`. */
export function modelSlug(modelId: string): string {
  const slug = modelId
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'model';
}

/**
 * One file name per model, `<runId>-<model slug>.json`. Two ids can make the same slug
 * (`a:b` and `a/b`); the later one then gets `-2`, `-3`… so no log overwrites another.
 */
export function logFileNames(runId: string, modelIds: readonly string[]): Map<string, string> {
  const used = new Set<string>();
  const names = new Map<string, string>();
  for (const id of modelIds) {
    const base = `${runId}-${modelSlug(id)}`;
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}-${n}`;
    used.add(name);
    names.set(id, `${name}.json`);
  }
  return names;
}

/**
 * A sample's id. Inspect identifies a sample by (id, epoch) within a log, and an epoch is our
 * attempt; when a run also varies the system prompt or the temperature, the same prompt has
 * one sample per variant, so the id names the variant: `<prompt key>#s<system>-t<temperature>`
 * (indices as stored, from 0).
 */
export function sampleId(promptKey: string, variant: { systemIndex: number; temperatureIndex: number } | null): string {
  return variant ? `${promptKey}#s${variant.systemIndex}-t${variant.temperatureIndex}` : promptKey;
}

/**
 * A provider's finish reason as Inspect's `StopReason`, the way Inspect's own providers read
 * theirs (model/_model_output.py `as_stop_reason` for OpenAI-compatible APIs,
 * _providers/anthropic.py `message_stop_reason`, _providers/google.py
 * `finish_reason_to_stop_reason`). Anything else is `unknown`, as there.
 */
export function inspectStopReason(finishReason: string | null): InspectStopReason {
  switch (finishReason) {
    case 'stop':
    case 'eos':
    case 'end_turn':
    case 'stop_sequence':
    case 'STOP':
      return 'stop';
    case 'length':
    case 'max_tokens':
    case 'MAX_TOKENS':
      return 'max_tokens';
    case 'model_length':
    case 'model_context_window_exceeded':
      return 'model_length';
    case 'tool_calls':
    case 'function_call':
    case 'tool_use':
      return 'tool_calls';
    case 'content_filter':
    case 'refusal':
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
      return 'content_filter';
    default:
      return 'unknown';
  }
}
