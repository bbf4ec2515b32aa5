/**
 * What the provider says it served, recorded on every reply (`replies.served_model`,
 * `replies.system_fingerprint`, `replies.provider_meta`), so a drift between two runs can say
 * "the provider changed the model behind the id" rather than leave a reader guessing. The id a
 * blueprint asks for (`openai:gpt-4o`) is an alias the provider may point at a new snapshot;
 * the response's own `model` field, OpenAI's `system_fingerprint` and a few response headers
 * are the only evidence of what answered.
 *
 * Only an allow-list of headers is kept: a header such as `set-cookie`, `authorization` or an
 * organisation id is never stored, whatever a provider sends.
 */
import { z } from 'zod';

/** Response headers worth keeping, lower-case. Everything else a provider sends is dropped. */
export const SERVED_HEADER_ALLOW_LIST = [
  'openai-model',
  'openai-version',
  'x-request-id',
  'request-id',
  'anthropic-model',
  'anthropic-version',
  'x-model',
  'x-served-model',
  'x-model-version',
] as const;

/** Longest stored value of any served field: a provider echoing a whole page into a header is cut. */
export const MAX_SERVED_VALUE = 200;

const ServedValue = z.string().max(MAX_SERVED_VALUE);

/** `replies.provider_meta`: the allow-listed headers and the provider's id of the response. */
export const ProviderMetaSchema = z
  .object({
    headers: z.partialRecord(z.enum(SERVED_HEADER_ALLOW_LIST), ServedValue).default({}),
    /** The provider's id of this response (`chatcmpl-…`, `msg_…`, Gemini's responseId), for a support ticket. */
    responseId: ServedValue.nullable().default(null),
  })
  .strict();
export type ProviderMeta = z.output<typeof ProviderMetaSchema>;

/** One call's served identity, as the LLM port returns it and as the reply stores it. */
export const ServedSchema = z
  .object({
    /** The response's `model` field (OpenAI, Anthropic, a custom mapping) or Gemini's `modelVersion`; null when absent. */
    model: ServedValue.nullable(),
    /** OpenAI-compatible `system_fingerprint`; null when the provider sends none. */
    fingerprint: ServedValue.nullable(),
    meta: ProviderMetaSchema,
  })
  .strict();
export type Served = z.output<typeof ServedSchema>;

export const NOTHING_SERVED: Served = { model: null, fingerprint: null, meta: { headers: {}, responseId: null } };

const cut = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v.slice(0, MAX_SERVED_VALUE) : null);

/**
 * Builds the served record from what an adapter read: any value that is not a non-empty string
 * becomes null, long values are cut, and only allow-listed headers survive (names compared
 * case-insensitively). `headers` may be a Fetch `Headers` or a plain record.
 */
export function servedFrom(raw: { model?: unknown; fingerprint?: unknown; responseId?: unknown; headers?: Headers | Record<string, unknown> | null }): Served {
  const headers: ProviderMeta['headers'] = {};
  const get = (name: string): unknown => {
    const h = raw.headers;
    if (!h) return undefined;
    if (typeof (h as Headers).get === 'function') return (h as Headers).get(name) ?? undefined;
    const rec = h as Record<string, unknown>;
    const key = Object.keys(rec).find((k) => k.toLowerCase() === name);
    return key === undefined ? undefined : rec[key];
  };
  for (const name of SERVED_HEADER_ALLOW_LIST) {
    const v = cut(get(name));
    if (v !== null) headers[name] = v;
  }
  return { model: cut(raw.model), fingerprint: cut(raw.fingerprint), meta: { headers, responseId: cut(raw.responseId) } };
}

/**
 * The served record of a response read back from the response cache: entries written before
 * this field existed (or by anything else) carry none, and are read as "nothing known", never
 * as an error that would fail the cell.
 */
export function servedOrNothing(value: unknown): Served {
  const parsed = ServedSchema.safeParse(value);
  return parsed.success ? parsed.data : NOTHING_SERVED;
}
