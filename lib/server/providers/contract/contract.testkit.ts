/**
 * The contract suite's two tools: the documented example bodies (fixtures/<provider>/*.json, each
 * with the page or repository file it comes from in `source`), and a loopback server that
 * answers every request with one of them, byte for byte, so the real HTTP client (SDK, our
 * fetch, our classifier) reads exactly what the provider documents.
 *
 * The replay server is not a second fake LLM: it has no rules and no dialects, it only sends a
 * stored body back. The fake (testing/fakes/llm-server.ts) answers as a provider behaves; this
 * checks that the adapters read what a provider publishes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APIError } from 'openai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { classifyOpenAiError, fromOpenAiCompletion } from '../openai-compatible';
import { withRetry, type RetryOptions } from '../retry';
import { isProviderError, type ChatResponse, type LlmClient, type ProviderError, type ProviderErrorKind } from '../types';

export const ExampleSchema = z
  .object({
    /** Where the body comes from: a repository and path (with commit), or a documentation page. */
    source: z.string().min(10),
    /** What was changed from the source (abridged), or how a body built from a schema was made. */
    note: z.string().optional(),
    status: z.number().int().min(200).max(599),
    headers: z.record(z.string(), z.string()).optional(),
    body: z.unknown(),
  })
  .strict();
export type Example = z.infer<typeof ExampleSchema> & { provider: string; name: string };

const ROOT = fileURLToPath(new URL('./fixtures', import.meta.url));

/** Every example of one provider folder, by file name without `.json`; a malformed file fails loudly with its path. */
export function examples(provider: 'openai' | 'anthropic' | 'gemini' | 'openrouter'): Map<string, Example> {
  const dir = join(ROOT, provider);
  const out = new Map<string, Example>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const parsed = ExampleSchema.safeParse(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    if (!parsed.success) throw new Error(`contract fixture ${provider}/${file}: ${parsed.error.message}`);
    out.set(file.replace(/\.json$/, ''), { ...parsed.data, provider, name: file.replace(/\.json$/, '') });
  }
  return out;
}

export interface ReplayServer {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Answers the next requests with these examples in turn (the last one repeats). */
  replay(...examples: Example[]): void;
  /** How many requests arrived since the last `replay`. */
  readonly requests: number;
  close(): Promise<void>;
}

/** A loopback server on a free port that answers with the examples given to `replay`. */
export async function startReplayServer(): Promise<ReplayServer> {
  let queue: Example[] = [];
  let served = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const example = queue[Math.min(served, queue.length - 1)];
      served++;
      if (!example) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('no example to replay');
        return;
      }
      res.writeHead(example.status, { 'content-type': 'application/json', ...example.headers });
      res.end(JSON.stringify(example.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    replay(...next) {
      queue = next;
      served = 0;
    },
    get requests() {
      return served;
    },
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

/** What Assay must make of one example: the reply it stores, or the error and whether it is tried again. */
export type Expected =
  /** A reply: the fields given must match (content, finishReason, refusal, toolCalls…); `refusal` absent means none. */
  | { reply: Partial<ChatResponse> }
  /** Tried again: the error's kind, and the next attempt (replayed with `then`) answers. */
  | { transient: ProviderErrorKind; message?: RegExp }
  /** Not tried again: one request, an error of this kind whose message says this. */
  | { permanent: ProviderErrorKind; message: RegExp };

export interface ContractSpec {
  provider: 'openai' | 'anthropic' | 'gemini' | 'openrouter';
  /** The adapter's own reading of a body: its response-reading function for a 2xx, its classifier for an error status. */
  read(example: Example): ChatResponse;
  /** The real client pointed at the replay server. */
  client(origin: string): LlmClient;
  /** One expectation per fixture file (by name): a fixture without one fails the suite. */
  cases: Record<string, Expected>;
  /** A plain reply replayed after a transient error, to show the retry gets through. */
  then: string;
  model: string;
}

const NO_WAIT: RetryOptions = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 60_000, sleep: async () => undefined };

function check(outcome: { reply: ChatResponse } | { error: unknown }, expected: Expected, where: string): void {
  if ('reply' in expected) {
    if (!('reply' in outcome)) throw new Error(`${where}: expected a reply, got ${String((outcome as { error: unknown }).error)}`);
    expect(outcome.reply, where).toMatchObject(expected.reply);
    if (!('refusal' in expected.reply)) expect(outcome.reply.refusal, `${where}: no refusal`).toBeUndefined();
    return;
  }
  if (!('error' in outcome)) throw new Error(`${where}: expected an error, got the reply ${JSON.stringify(outcome.reply.content)}`);
  const kind = 'transient' in expected ? expected.transient : expected.permanent;
  expect(isProviderError(outcome.error), `${where}: a ProviderError`).toBe(true);
  const e = outcome.error as ProviderError;
  expect({ kind: e.kind, retryable: e.retryable }, where).toEqual({ kind, retryable: 'transient' in expected });
  if (expected.message) expect(e.message, where).toMatch(expected.message);
}

/** Every example of `spec.provider` through the reading function and through the real client, with the stored outcome asserted. */
export function runContract(spec: ContractSpec): void {
  const all = examples(spec.provider);
  describe(`${spec.provider} documented examples (lib/server/providers/contract/fixtures/${spec.provider})`, () => {
    let server: ReplayServer;
    beforeAll(async () => {
      server = await startReplayServer();
    });
    afterAll(async () => {
      await server?.close();
    });

    it('has an expected outcome for every example, and an example for every expectation', () => {
      expect([...all.keys()].sort()).toEqual(Object.keys(spec.cases).sort());
    });

    for (const [name, expected] of Object.entries(spec.cases)) {
      it(`${name}: ${'reply' in expected ? (expected.reply.refusal ? 'a refusal, its text kept' : 'a reply') : 'transient' in expected ? `${expected.transient}, tried again` : `${expected.permanent}, not tried again`}`, async () => {
        const example = all.get(name);
        if (!example) throw new Error(`no fixture ${spec.provider}/${name}.json`);
        const where = `${spec.provider}/${name}.json (${example.source})`;
        // 1. the adapter's reading function on the body itself
        let read: { reply: ChatResponse } | { error: unknown };
        try {
          read = { reply: spec.read(example) };
        } catch (e) {
          read = { error: e };
        }
        check(read, expected, `${where}, read`);

        // 2. the real client over HTTP, under the run's retry policy
        const client = spec.client(server.origin);
        const next = all.get(spec.then)!;
        server.replay(example, next);
        let sent: { reply: ChatResponse } | { error: unknown };
        let first: unknown = null;
        try {
          sent = { reply: await withRetry(() => client.chat({ model: spec.model, messages: [{ role: 'user', content: 'Hello' }] }).catch((e: unknown) => ((first ??= e), Promise.reject(e))), NO_WAIT) };
        } catch (e) {
          sent = { error: e };
        }
        if ('transient' in expected) {
          // the first answer was the transient error; the retry read the next example
          check({ error: first }, expected, `${where}, over HTTP`);
          expect(server.requests, `${where}: tried again`).toBe(2);
          check(sent, { reply: { content: spec.read(next).content } }, `${where}, the retry`);
        } else {
          check(sent, expected, `${where}, over HTTP`);
          expect(server.requests, `${where}: one request`).toBe(1);
        }
      });
    }
  });
}

/** The OpenAI adapter's reading of an example (OpenAI and OpenRouter alike): the completion reader for a 2xx, else what the SDK throws for the status and body, classified. */
export function readOpenAiExample(provider: string, model: string, example: Example): ChatResponse {
  if (example.status < 300) return fromOpenAiCompletion(example.body as ChatCompletion, { provider, model, latencyMs: 1 });
  // What the SDK throws for this status and body (its own constructor), then our classification.
  throw classifyOpenAiError(APIError.generate(example.status, example.body as object, undefined, new Headers(example.headers)), provider, 'http://replay', []);
}
