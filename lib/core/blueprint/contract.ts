/**
 * The loader's contract check (parse.ts): the normalised blueprint against `BlueprintSchema`,
 * through zod's compiled fast path (`z.compile`, zod ≥ 4.5: same results and errors, several
 * times faster; it was ~15% of a load). `z.compile` refuses a schema with a reference cycle,
 * and a `correct:` tree (`CorrectNodeSchema`) is one. So the blueprint is checked by the same
 * schemas with a correct point's `check` left as unknown, compiled, and then each `check` by
 * `CorrectNodeSchema` itself (few prompts have one). The data out is what
 * `BlueprintSchema.safeParse` gives (contract.test.ts compares the two, key order included).
 */
import { z } from 'zod';
import { CorrectNodeSchema } from '../correct/schema';
import { BlueprintSchema, CorrectPointSchema, PointSchema, PromptSchema, type Blueprint } from './schema';

// Every point kind of PointSchema, so a kind added there is checked here too.
const POINT_KINDS = PointSchema.options.map((kind) => (kind === CorrectPointSchema ? CorrectPointSchema.extend({ check: z.unknown() }) : kind)) as unknown as typeof PointSchema.options;

const AcyclicBlueprintSchema = BlueprintSchema.extend({ prompts: z.array(PromptSchema.extend({ points: z.array(z.discriminatedUnion('kind', POINT_KINDS)) })) });

/**
 * Compiled at the first check, not at import: code that imports lib/core without loading a
 * blueprint (a page, a client bundle under a CSP without 'unsafe-eval') never generates it.
 * Where `new Function` is refused, `z.compile` returns the schema as it is (the runtime parser).
 */
let compiled: typeof AcyclicBlueprintSchema | undefined;

export type ContractCheck = { success: true; data: Blueprint } | { success: false; path: string; message: string };

export function checkBlueprint(blueprint: unknown): ContractCheck {
  compiled ??= z.compile(AcyclicBlueprintSchema);
  const checked = compiled.safeParse(blueprint);
  if (!checked.success) return failure(checked.error.issues[0], []);
  const data = checked.data as Blueprint;
  for (const [p, prompt] of data.prompts.entries()) {
    for (const [i, point] of prompt.points.entries()) {
      if (point.kind !== 'correct') continue;
      const tree = CorrectNodeSchema.safeParse(point.check);
      if (!tree.success) return failure(tree.error.issues[0], ['prompts', p, 'points', i, 'check']);
      point.check = tree.data;
    }
  }
  return { success: true, data };
}

function failure(issue: z.core.$ZodIssue | undefined, at: PropertyKey[]): ContractCheck {
  return { success: false, path: [...at, ...(issue?.path ?? [])].map(String).join('.'), message: issue?.message ?? 'invalid' };
}
