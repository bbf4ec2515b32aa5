/**
 * The registry of criterion kinds, beside the point functions' registry (lib/core/points).
 * Each helper list is filled by its own module; a name registered twice is a bug.
 */
import { DETERMINISTIC_KINDS } from './deterministic';
import { JUDGED_KINDS } from './judged';
import type { CriterionKindDef } from './types';

const kinds = new Map<string, CriterionKindDef<unknown>>();
for (const def of [...DETERMINISTIC_KINDS, ...JUDGED_KINDS] as CriterionKindDef<unknown>[]) {
  if (kinds.has(def.name)) throw new Error(`criterion kind "${def.name}" is registered twice`);
  kinds.set(def.name, def);
}

export function criterionKind(name: string): CriterionKindDef<unknown> | undefined {
  return kinds.get(name);
}

export const criterionKindNames: readonly string[] = [...kinds.keys()].sort();
