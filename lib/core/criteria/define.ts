/**
 * Small helpers every kind module uses: a typed definition erased for the registry, verdict
 * constructors, and the evidence's `expect` read through its one schema.
 */
import { ExpectSchema, type Expect } from '../blueprint/schema';
import type { CriterionKindDef, CriterionVerdict } from './types';

/** Erases the parameter type for the registry (the schema guarantees `evaluate` gets a `P`). */
export function defineKind<P>(def: CriterionKindDef<P>): CriterionKindDef<never> {
  return def as unknown as CriterionKindDef<never>;
}

export const pass = (detail: string, score: number | null = 1, data?: unknown): CriterionVerdict => ({ status: 'pass', score, detail, ...(data === undefined ? {} : { data }) });
export const fail = (detail: string, score: number | null = 0, data?: unknown): CriterionVerdict => ({ status: 'fail', score, detail, ...(data === undefined ? {} : { data }) });
export const notApplicable = (detail: string): CriterionVerdict => ({ status: 'not_applicable', score: null, detail });
export const errorVerdict = (detail: string): CriterionVerdict => ({ status: 'error', score: null, detail });

/** pass when `ok`, else fail, with the share as the score. */
export const judged = (ok: boolean, share: number, detail: string, data?: unknown): CriterionVerdict => (ok ? pass(detail, share, data) : fail(detail, share, data));

/** The case's soev `expect`, or null when it has none (or it does not parse: a stored version from before). */
export function expectOf(evidence: { expect: unknown }): Expect | null {
  const parsed = ExpectSchema.nullable().safeParse(evidence.expect ?? null);
  return parsed.success ? parsed.data : null;
}
