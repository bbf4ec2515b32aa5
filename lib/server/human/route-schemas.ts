/**
 * The review routes' bodies, for JSON and for the pages' HTML forms alike: a form sends every
 * field as text, and an empty field means the field was not given.
 */
import { z } from 'zod';
import { ReviewActionSchema } from '@/lib/core';

/** An optional text field: '' (an empty form field) is absent. */
export const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** An optional whole number: '' is absent, form text is read as a number. */
export const optionalInt = (min: number, max: number) =>
  z.preprocess((v) => (v === '' || v === null ? undefined : v), z.coerce.number().int().min(min).max(max).optional());

/** A checkbox posts "on" when ticked (a form may send '' for unticked); JSON callers send a boolean. */
export const checkbox = z
  .union([z.boolean(), z.enum(['on', 'true', 'false', ''])])
  .optional()
  .transform((v) => v === true || v === 'on' || v === 'true');

export const ReviewAnswerBody = z.object({
  action: ReviewActionSchema,
  answer: optionalText(200),
  flag: optionalText(100),
});

export const ReviewQueueKindSchema = z.enum(['verdicts', 'pairs']);

export const BlueprintIdField = z.string().trim().min(1, 'choose a blueprint').max(300);
