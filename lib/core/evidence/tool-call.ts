/**
 * A tool call, the one shape of it everywhere: what a provider adapter returns, what a run
 * stores in `replies.tool_calls`, what `correct:` checks and the tool point functions read,
 * and what the prompt page shows.
 */
import { z } from 'zod';

export const ToolCallSchema = z.object({
  /** The provider's id for the call, needed to send its result back; absent when it gave none. */
  id: z.string().optional(),
  name: z.string().min(1),
  /** Parsed JSON when the arguments parse, otherwise the raw string as the model wrote it; `{}` when none were given. */
  arguments: z.unknown(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;
