/**
 * `$call` and `$factcheck`: defined here, evaluated through `ctx.external`, which the server
 * implements with the maintainer's allow-list (so a blueprint never makes the server
 * fetch an arbitrary URL nor sends a secret anywhere). Core only shapes the request.
 */
import { z } from 'zod';
import type { FnOutcome, PointContext } from '../types';
import { defineFunction, objectError, show } from './define';

const CALL = '$call expects { service: "<configured service>", …parameters } (or Weval\'s { url: "…", …parameters }); parameters may use {response}, {modelId}, {promptId}, {messages}, {promptText}';
const FACTCHECK = '$factcheck takes no argument or an instruction string, e.g. `$factcheck: "focus on dates"`';

/**
 * Keys Weval read as HTTP configuration. They are accepted so Weval blueprints load, but not
 * forwarded: the maintainer's service configuration decides method, headers, timeouts, caching.
 */
const TRANSPORT_KEYS = ['method', 'headers', 'timeout_ms', 'cache', 'max_retries', 'retry_backoff_ms'] as const;

const callArgs = z
  .object(
    {
      service: z.string({ error: CALL }).min(1, { error: CALL }).optional(),
      url: z.string({ error: CALL }).min(1, { error: CALL }).optional(),
    },
    { error: CALL },
  )
  .loose()
  .refine((args) => (args.service === undefined) !== (args.url === undefined), { error: CALL });

type CallArgs = z.infer<typeof callArgs>;

/** `{response}` etc. substituted in every string parameter, recursively. */
export function substituteTemplates(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === 'string') return value.replace(/\{(\w+)\}/g, (whole, key: string) => vars[key] ?? whole);
  if (Array.isArray(value)) return value.map((item) => substituteTemplates(item, vars));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substituteTemplates(item, vars)]));
  }
  return value;
}

function templateVars(response: string, ctx: PointContext): Record<string, string> {
  const messages = ctx.messages ?? [];
  const lastUser = [...messages].reverse().find((message) => message.role === 'user');
  return {
    response,
    modelId: ctx.modelId ?? '',
    promptId: ctx.promptId ?? '',
    messages: JSON.stringify(messages),
    promptText: lastUser?.content ?? '',
  };
}

/** A service answers a score in [0,1] or boolean, optionally as { score, explain }, or { error }. */
export function interpretServiceReply(service: string, reply: unknown): FnOutcome {
  const body = reply && typeof reply === 'object' ? (reply as Record<string, unknown>) : { score: reply };
  if (typeof body.error === 'string') return { error: `${service}: ${body.error}` };
  const explain = typeof body.explain === 'string' && body.explain !== '' ? body.explain : undefined;
  if (typeof body.score === 'boolean') return { score: body.score ? 1 : 0, detail: explain ?? `${service} returned ${body.score}` };
  if (typeof body.score === 'number' && Number.isFinite(body.score)) {
    return { score: Math.max(0, Math.min(1, body.score)), detail: explain ?? `${service} returned ${body.score}` };
  }
  return { error: `${service} returned no usable score (${show(reply, 60)})` };
}

async function callService(service: string, payload: unknown, ctx: PointContext): Promise<FnOutcome> {
  if (!ctx.external) return { error: 'external service not configured' };
  try {
    return interpretServiceReply(service, await ctx.external.call(service, payload));
  } catch (error) {
    return { error: `${service} failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}

type FactcheckArgs = string | true | null | undefined | { instruction?: string };

export const externalFunctions = [
  defineFunction<CallArgs>({
    name: 'call',
    description: 'Asks an external scoring service configured by the maintainer; the reply is the score.',
    negatable: true,
    args: callArgs,
    evaluate(response, args, ctx) {
      const { service, url, ...rest } = args;
      const params = Object.fromEntries(Object.entries(rest).filter(([key]) => !(TRANSPORT_KEYS as readonly string[]).includes(key)));
      const vars = templateVars(response, ctx);
      // An inline `url` is passed as the service identity: only an allow-listed URL is called.
      return callService(service ?? url!, { response, modelId: ctx.modelId, promptId: ctx.promptId, params: substituteTemplates(params, vars) }, ctx);
    },
  }),
  defineFunction<FactcheckArgs>({
    name: 'factcheck',
    description: 'Fact-checks the response with the configured fact-check service (optional instruction).',
    negatable: true,
    args: z.union([z.string(), z.literal(true), z.null(), z.undefined(), z.object({ instruction: z.string({ error: FACTCHECK }).optional() }, objectError(FACTCHECK)).strict()], { error: FACTCHECK }),
    evaluate(response, args, ctx) {
      const instruction = typeof args === 'string' ? args : args && typeof args === 'object' ? args.instruction : undefined;
      return callService('factcheck', { claim: response, instruction }, ctx);
    },
  }),
];
