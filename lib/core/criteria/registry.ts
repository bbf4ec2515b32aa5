/**
 * The registry of criterion kinds, beside the point functions' registry (lib/core/points).
 * Each kind list (DETERMINISTIC_KINDS, JUDGED_KINDS) is filled by its own module; a name registered
 * twice is a bug. An unknown name resolves to an error with "did you mean" suggestions (the same
 * registry as `$fn` names: lib/core/registry.ts), so the parser reports it at load time.
 */
import { createRegistry, didYouMean } from '../registry';
import { DETERMINISTIC_KINDS } from './deterministic';
import { JUDGED_KINDS } from './judged';
import type { CriterionKindDef } from './types';

const kinds = createRegistry('criterion kind', [...DETERMINISTIC_KINDS, ...JUDGED_KINDS] as CriterionKindDef<unknown>[]);

export function criterionKind(name: string): CriterionKindDef<unknown> | undefined {
  return kinds.get(name);
}

export const criterionKindNames: readonly string[] = kinds.names;

export type KindResolution = { ok: true; def: CriterionKindDef<unknown> } | { ok: false; message: string; suggestions: string[] };

/** A kind by its name as written (`reply.language`), or why not, with the closest names. */
export function resolveCriterionKind(written: string): KindResolution {
  const name = written.trim();
  const def = kinds.get(name);
  if (def) return { ok: true, def };
  const suggestions = kinds.suggest(name);
  return { ok: false, message: `unknown ${kinds.kind} "${written}"${didYouMean(suggestions)}`, suggestions };
}

export function listCriterionKinds(): CriterionKindDef<unknown>[] {
  return criterionKindNames.map((name) => kinds.get(name)!);
}
