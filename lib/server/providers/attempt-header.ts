/**
 * The attempt number travels as a header on every provider call, so a response cache or the
 * fake server can tell an intended repeat (an independent sample) from an accidental duplicate.
 */
import type { ChatRequest } from './types';

export const ATTEMPT_HEADER = 'x-assay-attempt';

export function attemptHeaders(req: Pick<ChatRequest, 'attempt'>): Record<string, string> {
  return req.attempt === undefined ? {} : { [ATTEMPT_HEADER]: String(req.attempt) };
}
