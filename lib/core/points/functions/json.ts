/** is_json: the whole response is a JSON object or array. */
import { z } from 'zod';
import { defineFunction, verdict } from './define';

/**
 * A response that is exactly one fenced code block (```json … ``` or ``` … ```) counts
 * by its content: models wrap JSON in fences by habit and Weval rejected that (defect 11 in docs/compatibility.md).
 * Prose around the fence still fails: the check is "the response is JSON".
 */
const FENCED = /^```[ \t]*(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n?```$/i;

function parsesAsStructure(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    // A bare string or number literal is valid JSON but not a JSON document (Weval: false).
    return typeof parsed === 'object' && parsed !== null;
  } catch {
    return false;
  }
}

export function isJsonResponse(response: string): { ok: boolean; fenced: boolean } {
  const trimmed = response.trim();
  if (parsesAsStructure(trimmed)) return { ok: true, fenced: false };
  const fence = FENCED.exec(trimmed);
  if (fence && parsesAsStructure(fence[1]!)) return { ok: true, fenced: true };
  return { ok: false, fenced: false };
}

const MESSAGE = 'is_json takes no argument: write `- $is_json` or `- $is_json: true` (and `$not_is_json` for the opposite)';

export const jsonFunctions = [
  defineFunction<true | null | undefined>({
    name: 'is_json',
    description: 'The response is a JSON object or array (optionally as one fenced ```json block).',
    negatable: true,
    args: z.union([z.literal(true), z.null(), z.undefined()], { error: MESSAGE }),
    evaluate(response) {
      const { ok, fenced } = isJsonResponse(response);
      return verdict(ok, ok ? `is_json: yes${fenced ? ' (fenced code block)' : ''}` : 'is_json: no');
    },
  }),
];
