/**
 * `correct:` trees: `any` / `all` / `not` over assertions that query the
 * normalised response view (`$.raw`, `$.content`, `$.content_json`, `$.tool_calls`).
 */
import { z } from 'zod';

export const AssertionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('jsonpath_equals'), path: z.string(), value: z.unknown() }),
  z.object({ type: z.literal('jsonpath_regex'), path: z.string(), pattern: z.string(), flags: z.string().optional() }),
  z.object({ type: z.literal('jsonpath_exists'), path: z.string() }),
  z.object({ type: z.literal('jsonpath_not_exists'), path: z.string() }),
  z.object({ type: z.literal('jsonpath_contains'), path: z.string(), value: z.unknown() }),
  z.object({ type: z.literal('regex'), pattern: z.string(), flags: z.string().optional(), path: z.string().optional() }),
  z.object({ type: z.literal('equals'), value: z.unknown(), path: z.string().optional() }),
  z.object({ type: z.literal('contains'), value: z.string(), path: z.string().optional() }),
]);
export type Assertion = z.infer<typeof AssertionSchema>;

export type CorrectNode =
  | { any: CorrectNode[]; name?: string }
  | { all: CorrectNode[]; name?: string }
  | { not: CorrectNode; name?: string }
  | { assertions: Assertion[]; name?: string }
  | Assertion;

export const CorrectNodeSchema: z.ZodType<CorrectNode> = z.lazy(() =>
  z.union([
    z.object({ any: z.array(CorrectNodeSchema).min(1), name: z.string().optional() }).strict(),
    z.object({ all: z.array(CorrectNodeSchema).min(1), name: z.string().optional() }).strict(),
    z.object({ not: CorrectNodeSchema, name: z.string().optional() }).strict(),
    z.object({ assertions: z.array(AssertionSchema).min(1), name: z.string().optional() }).strict(),
    AssertionSchema,
  ]),
);
