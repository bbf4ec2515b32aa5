/**
 * The one contract every LlmClient adapter must honour, run against each of them through the
 * real fake server (one shared suite for every adapter of a port, as Hono's `common.case.test.ts` is for its routers). Adapter files call
 * `runLlmClientContract` from their `*.test.ts`; nothing here is mocked.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GARBAGE } from '@/testing/fakes/llm-server-rules';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { isAbortError } from './deadline';
import { ProviderError, type ChatRequest, type LlmClient } from './types';

/** The key the fake accepts; an adapter made with any other gets a 401. */
export const CONTRACT_KEY = 'sk-contract-0123456789abcdef';
export const WRONG_KEY = 'sk-wrong-9876543210fedcba';

export interface ContractContext {
  fake: FakeLlm;
  apiKey: string;
}

export interface ContractOptions {
  /** The model name the adapter sends (what ChatRequest.model should be). */
  model?: string;
  /** The adapter returns token log-probabilities when asked (OpenAI format). */
  logprobs: boolean;
  /** Tool calls come back parsed. */
  toolCalls: boolean;
  /** Token usage is reported. */
  usage: boolean;
  /**
   * What the adapter reads of what the provider served: the reply's `system_fingerprint`
   * (OpenAI-compatible and custom replies have one; Anthropic's have none) and the header
   * that names the response (`x-request-id`, Anthropic's `request-id`).
   */
  served: { fingerprint: boolean; requestIdHeader: 'x-request-id' | 'request-id' };
}

const WEATHER_TOOL = {
  type: 'function',
  function: { name: 'get_weather', description: 'Current weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
};

/** What a promise rejects with; fails the test when it resolves. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to fail');
}

export function runLlmClientContract(name: string, makeClient: (ctx: ContractContext) => LlmClient, options: ContractOptions): void {
  const model = options.model ?? 'fake-model';

  describe(`LlmClient contract: ${name}`, () => {
    let fake: FakeLlm;
    let client: LlmClient;
    const ask = (req: Partial<ChatRequest> & Pick<ChatRequest, 'messages'>): ReturnType<LlmClient['chat']> => client.chat({ model, ...req });
    const lastRequest = () => fake.requests().at(-1)!.request;

    beforeAll(async () => {
      fake = await startFakeLlm({ apiKeys: [CONTRACT_KEY] });
      client = makeClient({ fake, apiKey: CONTRACT_KEY });
    });
    afterAll(() => fake.close());
    beforeEach(() => fake.reset());

    it('returns a plain reply with its latency', async () => {
      const res = await ask({ messages: [{ role: 'user', content: 'Hello there, how are you today?' }] });
      expect(res.content).toBe(`Fake reply from ${model} to: Hello there, how are you today?`);
      expect(res.toolCalls).toEqual([]);
      expect(res.latencyMs).toBeGreaterThanOrEqual(0);
      expect(fake.calls()).toBe(1);
    });

    it('sends the system prompt as the system prompt, not as a turn', async () => {
      fake.setRules([{ system: 'pirate', reply: 'Arr, matey.' }]);
      const res = await ask({
        messages: [
          { role: 'system', content: 'You are a pirate.' },
          { role: 'user', content: 'Greet me.' },
        ],
      });
      expect(res.content).toBe('Arr, matey.');
      expect(lastRequest().system).toBe('You are a pirate.');
      expect(lastRequest().messages).toEqual([{ role: 'user', content: 'Greet me.' }]);
    });

    it('keeps a multi-turn conversation in order, and sends temperature', async () => {
      fake.setRules([{ lastUser: '^And the second\\?$', reply: 'Two.' }]);
      const res = await ask({
        temperature: 0,
        messages: [
          { role: 'user', content: 'Count with me. The first?' },
          { role: 'assistant', content: 'One.' },
          { role: 'user', content: 'And the second?' },
        ],
      });
      expect(res.content).toBe('Two.');
      expect(lastRequest().messages).toEqual([
        { role: 'user', content: 'Count with me. The first?' },
        { role: 'assistant', content: 'One.' },
        { role: 'user', content: 'And the second?' },
      ]);
      expect(lastRequest().temperature).toBe(0);
    });

    if (options.toolCalls) {
      it('parses tool calls, and sends tool results back in a follow-up turn', async () => {
        fake.setRules([
          { lastUser: 'weather', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris', units: 'C' } }] },
          { lastTool: '"temp":18', reply: 'It is 18°C in Paris.' },
        ]);
        const first = await ask({ tools: [WEATHER_TOOL], messages: [{ role: 'user', content: 'What is the weather in Paris?' }] });
        expect(first.toolCalls).toHaveLength(1);
        expect(first.toolCalls[0]).toMatchObject({ name: 'get_weather', arguments: { city: 'Paris', units: 'C' } });
        const id = first.toolCalls[0]!.id ?? 'call_1';

        const second = await ask({
          tools: [WEATHER_TOOL],
          messages: [
            { role: 'user', content: 'What is the weather in Paris?' },
            { role: 'assistant', content: null, toolCalls: [{ id, name: 'get_weather', arguments: { city: 'Paris', units: 'C' } }] },
            { role: 'tool', toolCallId: id, content: '{"temp":18}' },
          ],
        });
        expect(second.content).toBe('It is 18°C in Paris.');
        expect(lastRequest().messages.slice(1)).toEqual([
          { role: 'assistant', content: '', toolCalls: [{ id, name: 'get_weather', arguments: { city: 'Paris', units: 'C' } }] },
          { role: 'tool', content: '{"temp":18}', toolCallId: id },
        ]);
      });
    }

    if (options.logprobs) {
      it('returns the top log-probabilities from which a judge distribution is reconstructed exactly', async () => {
        fake.setRules([{ model: '.', judge: { labels: { A: 0.1, B: 0.2, C: 0.7 } } }]);
        const res = await ask({ temperature: 0, topLogprobs: 5, messages: [{ role: 'user', content: 'Which label? Answer A, B or C.' }] });
        expect(res.content).toMatch(/<answer>C<\/answer>$/);
        expect(res.logprobs!.map((t) => t.token).join('')).toBe(res.content);
        // OpenAI's tokenizers glue the letter to the tag's `>` (`>C`): the alternatives at that
        // position carry the same `>`, which is taken off to name their labels.
        const chosen = res.logprobs!.find((t) => /^\s*>?\s*C$/.test(t.token))!;
        const glue = chosen.token.slice(0, chosen.token.indexOf('C'));
        const top = chosen.top.filter((t) => t.token.startsWith(glue));
        const z = top.reduce((s, t) => s + Math.exp(t.logprob), 0);
        const probs = Object.fromEntries(top.map((t) => [t.token.slice(glue.length).trim(), Math.exp(t.logprob) / z]));
        expect(probs.A).toBeCloseTo(0.1, 12);
        expect(probs.B).toBeCloseTo(0.2, 12);
        expect(probs.C).toBeCloseTo(0.7, 12);
      });
    } else {
      it('returns null log-probabilities when the provider has none, even when asked', async () => {
        const res = await ask({ topLogprobs: 5, messages: [{ role: 'user', content: 'Hi' }] });
        expect(res.logprobs).toBeNull();
      });
    }

    if (options.usage) {
      it('records token usage', async () => {
        fake.setRules([{ reply: 'ok', usage: { promptTokens: 12, completionTokens: 3 } }]);
        const res = await ask({ messages: [{ role: 'user', content: 'Hi' }] });
        expect(res.usage).toEqual({ promptTokens: 12, completionTokens: 3 });
      });
    }

    it('records what the provider served: its model field, fingerprint and allow-listed headers, changed at run time', async () => {
      const before = await ask({ messages: [{ role: 'user', content: 'Hi' }] });
      expect(before.served.model).toBe(model);
      expect(before.served.fingerprint).toEqual(options.served.fingerprint ? expect.stringMatching(/^fp_[0-9a-f]{10}$/) : null);
      expect(before.served.meta.headers[options.served.requestIdHeader]).toMatch(/^req_fake_\d+$/);
      // The fake also sends a cookie and an organisation id: never kept.
      const kept = Object.keys(before.served.meta.headers);
      expect(kept.some((h) => /cookie|organi[sz]ation|authori[sz]ation/i.test(h))).toBe(false);
      expect(JSON.stringify(before.served)).not.toMatch(/secret-|org-fake-private/);

      // The provider points the id at a new snapshot: the reply says so.
      fake.setServed([{ model: '.', servedModel: `${model}-2026-12-01`, fingerprint: 'fp_new_build' }]);
      const after = await ask({ messages: [{ role: 'user', content: 'Hi' }] });
      expect(after.served.model).toBe(`${model}-2026-12-01`);
      expect(after.served.fingerprint).toBe(options.served.fingerprint ? 'fp_new_build' : null);
    });

    it('passes a malformed (label-less) judge answer through as content: judging decides', async () => {
      fake.setFaults({ malformed: 1 });
      const res = await ask({ messages: [{ role: 'user', content: 'Judge this.' }] });
      expect(res.content).toBe(GARBAGE);
      expect(fake.duplicateCompletedCalls()).toBe(0);
    });

    it('classifies 429 as rate_limited with the retry-after in milliseconds', async () => {
      fake.setFaults({ rateLimited: 1 });
      const e = await rejection(ask({ messages: [{ role: 'user', content: 'Hi' }] }));
      expect(e).toBeInstanceOf(ProviderError);
      expect(e).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 50 });
    });

    it('classifies 500 as retryable', async () => {
      fake.setFaults({ serverError: 1 });
      const e = await rejection(ask({ messages: [{ role: 'user', content: 'Hi' }] }));
      expect(e).toMatchObject({ kind: 'retryable', status: 500 });
    });

    it('classifies 401 as auth, and never repeats the key even when the provider echoes it', async () => {
      const wrong = makeClient({ fake, apiKey: WRONG_KEY });
      const e = await rejection(wrong.chat({ model, messages: [{ role: 'user', content: 'Hi' }] }));
      expect(e).toMatchObject({ kind: 'auth', status: 401 });
      const seen = `${(e as Error).message} ${JSON.stringify(e)} ${String((e as Error).stack)}`;
      expect(seen).not.toContain(WRONG_KEY);
      expect(seen).not.toContain(WRONG_KEY.slice(6));
    });

    it('gives up on a hanging server with a timeout within timeoutMs', async () => {
      fake.setFaults({ hang: 1 });
      const started = performance.now();
      const e = await rejection(ask({ timeoutMs: 300, messages: [{ role: 'user', content: 'Hi' }] }));
      const elapsed = performance.now() - started;
      expect(e).toMatchObject({ kind: 'timeout' });
      expect(elapsed).toBeGreaterThanOrEqual(290);
      expect(elapsed).toBeLessThan(1_500);
    });

    it('stops when the caller aborts, with the caller’s abort (not retried, not a provider error)', async () => {
      fake.setFaults({ hang: 1 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const started = performance.now();
      const e = await rejection(ask({ signal: controller.signal, timeoutMs: 10_000, messages: [{ role: 'user', content: 'Hi' }] }));
      expect(isAbortError(e)).toBe(true);
      expect(e).not.toBeInstanceOf(ProviderError);
      expect(performance.now() - started).toBeLessThan(1_000);
    });

    it('sends the attempt number, so repeats are not duplicates but a true repeat is', async () => {
      const messages: ChatRequest['messages'] = [{ role: 'user', content: 'Same prompt' }];
      // this test's own calls only: a call of an earlier test still in flight on a loaded machine
      // (a hung or slow one) may complete during this one
      const mine = () => {
        const keys = new Set(fake.requests().filter((r) => JSON.stringify(r.request).includes('Same prompt')).map((r) => r.key));
        return [...fake.callsByKey().entries()].filter(([k]) => keys.has(k)).map(([, n]) => n);
      };
      await ask({ messages, attempt: 0 });
      await ask({ messages, attempt: 1 });
      expect(mine()).toEqual([1, 1]);
      await ask({ messages, attempt: 1 });
      expect(mine()).toEqual([1, 2]);
    });
  });
}
