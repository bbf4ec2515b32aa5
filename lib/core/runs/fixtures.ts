/**
 * Weval's fixtures format: fixed replies per prompt id, so a blueprint runs with no
 * provider at all (`assay run --fixtures FILE`). Per prompt: `default` and/or `byModel`
 * (exact model id, or a `prefix*` wildcard); a value is a reply, a list of replies (picked
 * by a seeded hash, or the first), or `{ turns: [...] }` for the generated turns of a
 * multi-turn prompt in order, the last being the final reply.
 */
import { z } from 'zod';

const FixtureValueSchema = z.union([z.string(), z.array(z.string()).min(1), z.object({ turns: z.array(z.string()).min(1) })]);

export const FixtureSetSchema = z.object({
  version: z.number().optional(),
  strategy: z.enum(['seeded', 'round-robin', 'first']).optional(),
  seed: z.union([z.number(), z.string()]).optional(),
  responses: z.record(
    z.string(),
    z.object({ default: FixtureValueSchema.optional(), byModel: z.record(z.string(), FixtureValueSchema).optional(), notes: z.string().optional() }),
  ),
});
export type FixtureSet = z.infer<typeof FixtureSetSchema>;

/** The fixed turns for one generation: `turns` fills generated turns in order (the last is the final reply). */
export function pickFixture(fixtures: FixtureSet, promptId: string, modelId: string, attempt: number): { turns: string[] } | null {
  const spec = fixtures.responses[promptId];
  if (!spec) return null;
  const value = byModel(spec.byModel, modelId) ?? spec.default;
  if (value === undefined) return null;
  if (typeof value === 'string') return { turns: [value] };
  if (Array.isArray(value)) {
    if (fixtures.strategy === 'first' || fixtures.strategy === 'round-robin') return { turns: [value[0]!] };
    const index = fnv1a(`${fixtures.seed ?? 0}|${promptId}|${modelId}|${attempt}`) % value.length;
    return { turns: [value[index]!] };
  }
  return { turns: [...value.turns] };
}

function byModel(map: Record<string, z.infer<typeof FixtureValueSchema>> | undefined, modelId: string) {
  if (!map) return undefined;
  if (map[modelId] !== undefined) return map[modelId];
  for (const [key, value] of Object.entries(map)) if (key.endsWith('*') && modelId.startsWith(key.slice(0, -1))) return value;
  return undefined;
}

function fnv1a(s: string): number {
  let h = 2166136261 >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}
