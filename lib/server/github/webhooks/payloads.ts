/**
 * The webhook payloads Assay acts on, validated with zod: only the fields it reads, with
 * everything else passed through. A payload that does not match is answered 400 and
 * changes nothing.
 */
import { z } from 'zod';

const repository = z.object({ full_name: z.string() });
const login = z.object({ login: z.string() });

export const PushPayload = z.object({
  ref: z.string(),
  after: z.string(),
  repository,
});

export const PullRequestPayload = z.object({
  action: z.string(),
  number: z.number().int().positive(),
  pull_request: z.object({
    title: z.string(),
    state: z.string(),
    user: login,
    head: z.object({ sha: z.string() }),
    base: z.object({ ref: z.string() }),
  }),
  label: z.object({ name: z.string() }).optional(),
  repository,
  sender: login,
});

export const IssueCommentPayload = z.object({
  action: z.string(),
  issue: z.object({ number: z.number().int().positive(), pull_request: z.object({}).loose().optional() }),
  comment: z.object({ body: z.string(), user: login }),
  repository,
});
