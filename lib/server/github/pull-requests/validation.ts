/**
 * The stored result of validating a pull request's files (pull_requests.validation): the
 * zod schema is the type (inferred from it), so the approval step reads back exactly what the
 * validation step wrote.
 */
import { z } from 'zod';

export const FileIssueSchema = z.object({
  line: z.number().int(),
  col: z.number().int(),
  message: z.string(),
  hint: z.string().optional(),
});
export type FileIssue = z.infer<typeof FileIssueSchema>;

export const ValidatedFileSchema = z.object({
  path: z.string(),
  kind: z.enum(['blueprint', 'collection']),
  /** For blueprints: the id the file will have (`blueprints/a/b.yml` → `a__b`). */
  blueprintId: z.string().nullable(),
  blobSha: z.string(),
  valid: z.boolean(),
  promptCount: z.number().int(),
  errors: z.array(FileIssueSchema),
  warnings: z.array(FileIssueSchema),
});
export type ValidatedFile = z.infer<typeof ValidatedFileSchema>;

export const PullRequestValidationSchema = z.object({ files: z.array(ValidatedFileSchema) });
export type PullRequestValidation = z.infer<typeof PullRequestValidationSchema>;

/** validating | invalid | awaiting_approval | no_blueprints | approved | running | reported */
export type PullRequestState = 'validating' | 'invalid' | 'awaiting_approval' | 'no_blueprints' | 'approved' | 'running' | 'reported';

export function stateOf(v: PullRequestValidation): PullRequestState {
  if (v.files.length === 0) return 'no_blueprints';
  return v.files.every((f) => f.valid) ? 'awaiting_approval' : 'invalid';
}

/** Validate a model collection (`models/NAME.json`): a JSON array of model ids or custom model objects. */
export function checkCollection(text: string): FileIssue[] {
  let models: unknown;
  try {
    models = JSON.parse(text);
  } catch (e) {
    return [{ line: 1, col: 1, message: `model collection is not valid JSON: ${(e as Error).message}` }];
  }
  return checkCollectionValue({ ok: true, value: models });
}

/** The same check over JSON already parsed (in the untrusted-work pool's `parse-json` task). */
export function checkCollectionValue(parsed: { ok: true; value: unknown } | { ok: false; message: string }): FileIssue[] {
  if (!parsed.ok) return [{ line: 1, col: 1, message: `model collection is not valid JSON: ${parsed.message}` }];
  const models = parsed.value;
  if (!Array.isArray(models) || !models.every((m) => typeof m === 'string' || (typeof m === 'object' && m !== null))) {
    return [{ line: 1, col: 1, message: 'a model collection must be a JSON array of model ids', hint: 'e.g. ["openai:gpt-4o-mini", "anthropic:claude-3-5-haiku-latest"]' }];
  }
  return [];
}
