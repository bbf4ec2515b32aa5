/**
 * A run's plan: every generation the run must make (prompt × model × system prompt ×
 * temperature × attempt), derived from the blueprint and the run's settings. Pure and
 * deterministic, so a resumed run recomputes exactly the same plan and finds what is done.
 */
import { z } from 'zod';
import { JudgeModeSchema, type Blueprint, type JudgeMode, type Message, type Prompt, type Variant } from '../blueprint/schema';
import { systemPromptFor, systemPromptsToRun, temperaturesToRun } from '../blueprint/axes';
import type { JudgeApproach } from '../judging/prompt';

export const JudgeSpecSchema = z.object({
  model: z.string().min(1),
  approach: z.enum(['standard', 'prompt-aware', 'holistic']),
});
export type JudgeSpec = z.infer<typeof JudgeSpecSchema>;

export const RunSettingsSchema = z.object({
  /** Resolved model ids (collections already expanded). */
  models: z.array(z.string().min(1)).min(1),
  judges: z.array(JudgeSpecSchema),
  /** Overrides every prompt's `repeats` when set. */
  repeats: z.number().int().positive().nullable(),
  /** Limit to the first N active prompts (a PR run's budget), or null for all. */
  maxPrompts: z.number().int().positive().nullable(),
  /** Samples per judge when a provider returns no log-probabilities. */
  judgeSamples: z.number().int().min(1).max(20),
  /** `batched`: every judged point of a reply in one call per judge; absent = per-point (the default). */
  judgeMode: JudgeModeSchema.optional(),
  /** Systems under test over HTTP: model id → the endpoint spec written in the blueprint. */
  customModels: z.record(z.string(), z.record(z.string(), z.unknown())),
});
export type RunSettings = z.infer<typeof RunSettingsSchema>;

export interface GenerationCell {
  /** `promptKey|modelId|systemIndex|temperatureIndex|attempt`: the reply's natural key. */
  key: string;
  promptKey: string;
  modelId: string;
  systemIndex: number;
  temperatureIndex: number;
  temperature: number | null;
  attempt: number;
  /** The conversation to send: system prompt first, `assistant: null` turns still to generate. */
  messages: Message[];
  /**
   * The prompt's `variants:`, each its own conversation with the same model, system prompt,
   * temperature and attempt (docs/criteria-judged.md, "Variants"). They are generated with the cell
   * and stored beside its reply (not as replies), so a variant never counts as an attempt;
   * `compare.*` reads them.
   */
  variants: CellVariant[];
}

export interface CellVariant {
  name: string;
  messages: Message[];
}

export function cellKey(c: Pick<GenerationCell, 'promptKey' | 'modelId' | 'systemIndex' | 'temperatureIndex' | 'attempt'>): string {
  return [c.promptKey, c.modelId, c.systemIndex, c.temperatureIndex, c.attempt].join('|');
}

/** The prompts a run grades: active ones (draft and retired are skipped), capped by maxPrompts. */
export function promptsToRun(bp: Blueprint, settings: Pick<RunSettings, 'maxPrompts'>): Prompt[] {
  const active = bp.prompts.filter((p) => p.status === 'active');
  return settings.maxPrompts ? active.slice(0, settings.maxPrompts) : active;
}

export function conversationFor(bp: Blueprint, prompt: Prompt, systemIndex: number): Message[] {
  const system = systemPromptFor(bp, prompt, systemIndex);
  const turns = prompt.messages.filter((m) => m.role !== 'system');
  const inline = prompt.messages.filter((m) => m.role === 'system');
  // A system turn written inside `messages` wins over the blueprint's (it is the prompt's own).
  if (inline.length > 0) return [...inline, ...turns];
  return system ? [{ role: 'system', content: system }, ...turns] : turns;
}

/**
 * A variant's conversation: the cell's system prompt, then the variant's user turns with a
 * generated assistant turn between each two, as the prompt's own turns are sent.
 */
export function variantConversationFor(bp: Blueprint, prompt: Prompt, systemIndex: number, variant: Variant): Message[] {
  const system = conversationFor(bp, prompt, systemIndex).filter((m) => m.role === 'system');
  const turns = variant.messages.flatMap((m, i): Message[] => (i === 0 ? [m] : [{ role: 'assistant', content: null }, m]));
  return [...system, ...turns];
}

export function planGenerations(bp: Blueprint, settings: Pick<RunSettings, 'models' | 'repeats' | 'maxPrompts'>): GenerationCell[] {
  const systems = systemPromptsToRun(bp);
  const blueprintTemperatures = temperaturesToRun(bp);
  const cells: GenerationCell[] = [];
  for (const prompt of promptsToRun(bp, settings)) {
    const repeats = settings.repeats ?? prompt.repeats;
    // A prompt's own `temperature` (Weval's per-prompt field) replaces the blueprint's axis for it.
    const temperatures = prompt.temperature != null ? [prompt.temperature] : blueprintTemperatures;
    for (const modelId of settings.models) {
      for (let systemIndex = 0; systemIndex < systems.length; systemIndex++) {
        const messages = conversationFor(bp, prompt, systemIndex);
        const variants = prompt.variants.map((v) => ({ name: v.name, messages: variantConversationFor(bp, prompt, systemIndex, v) }));
        for (let temperatureIndex = 0; temperatureIndex < temperatures.length; temperatureIndex++) {
          for (let attempt = 0; attempt < repeats; attempt++) {
            const cell = { promptKey: prompt.id, modelId, systemIndex, temperatureIndex, temperature: temperatures[temperatureIndex] ?? null, attempt, messages, variants };
            cells.push({ ...cell, key: cellKey(cell) });
          }
        }
      }
    }
  }
  return cells;
}

const APPROACHES: JudgeApproach[] = ['standard', 'prompt-aware', 'holistic'];

/**
 * The judge panel: explicit specs (`model` or `model#approach`) when given, else the
 * blueprint's `evaluationConfig['llm-coverage'].judges`, else the platform default. Judges
 * without an approach take Weval's default rotation (standard, prompt-aware, holistic).
 */
export function judgePanel(written: readonly string[] | null, bp: Pick<Blueprint, 'evaluationConfig'>, platformDefault: readonly string[]): JudgeSpec[] {
  const fromConfig = blueprintJudges(bp.evaluationConfig);
  const specs = written?.length ? written.map(parseJudge) : fromConfig.length ? fromConfig : platformDefault.map(parseJudge);
  return specs.map((s, i) => ({ model: s.model, approach: s.approach ?? APPROACHES[i % APPROACHES.length]! }));
}

/**
 * How a run puts its points to the judges: the request's choice (`assay run --judge-mode`),
 * else the blueprint's (`judge_mode`, or its judge set's), else per-point. Per-point stays the
 * default until batched judging's agreement with it is shown on real judges (docs/judging.md).
 */
export function judgeModeFor(requested: JudgeMode | null | undefined, bp: Pick<Blueprint, 'judge_mode'>): JudgeMode {
  return requested ?? bp.judge_mode ?? 'per-point';
}

function parseJudge(text: string): { model: string; approach?: JudgeApproach } {
  const [model, approach] = text.split('#');
  const a = JudgeSpecSchema.shape.approach.safeParse(approach);
  if (approach !== undefined && !a.success) throw new Error(`unknown judge approach "${approach}" in "${text}": use standard, prompt-aware or holistic`);
  return { model: model!, ...(a.success ? { approach: a.data } : {}) };
}

const WevalJudgesSchema = z.object({
  'llm-coverage': z.object({ judges: z.array(z.object({ model: z.string(), approach: JudgeSpecSchema.shape.approach.optional() }).loose()) }).loose(),
});

function blueprintJudges(evaluationConfig: unknown): { model: string; approach?: JudgeApproach }[] {
  const parsed = WevalJudgesSchema.safeParse(evaluationConfig);
  return parsed.success ? parsed.data['llm-coverage'].judges : [];
}
