import { afterEach, describe, expect, it } from 'vitest';
import { fakeLlmAdmin } from './llm-server-admin';
import { startFakeLlm, type FakeLlm, type FakeLlmOptions, type RuleInput } from './llm-server';
import { buildJudgeBatchRequest, buildJudgeRequest, judgeScaleQuestion, readJudgeBatchOutput, readJudgeBatchSamples, readJudgeOutput, readJudgeSamples, type JudgeQuestion } from '@/lib/core';
import { defaultFingerprint, GARBAGE } from './llm-server-rules';

let fake: FakeLlm | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function start(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  fake = await startFakeLlm(options);
  return fake;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads wire JSON

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Json; headers: Headers }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Json, headers: res.headers };
}

const openai = (f: FakeLlm, body: Json | string, headers?: Record<string, string>) => post(`${f.url}/chat/completions`, body, headers);
const anthropic = (f: FakeLlm, body: Json) => post(`${f.url}/messages`, { max_tokens: 100, ...body });
const user = (content: string, model = 'fake-model', extra: Json = {}) => ({ model, messages: [{ role: 'user', content }], ...extra });

describe('fake LLM: scripted replies', () => {
  it('answers with a deterministic default reply when no rule matches', async () => {
    const f = await start();
    const { status, json } = await openai(f, user('Explain the difference between a list and a tuple in Python'));
    expect(status).toBe(200);
    expect(json.choices[0].message.content).toBe('Fake reply from fake-model to: Explain the difference between a list an');
    expect(json.choices[0].finish_reason).toBe('stop');
    // One token per word: deterministic usage for assertions; the detail objects as OpenAI's
    // API reference shows them in its chat completion example (CompletionUsage).
    expect(json.usage).toEqual({
      prompt_tokens: 11,
      completion_tokens: 12,
      total_tokens: 23,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    });
  });

  it('matches rules in order on model, last user turn and system prompt (strings are regex sources, /…/flags allowed)', async () => {
    const f = await start({
      rules: [
        { model: '^gpt-', lastUser: '/CAPITAL/i', reply: 'Paris (gpt)' },
        { lastUser: 'capital', reply: 'Paris (anyone)' },
        { system: 'terse', reply: 'k.' },
        { model: /claude/, reply: 'claude default' },
      ],
    });
    const content = async (body: Json) => (await openai(f, body)).json.choices[0].message.content as string;
    expect(await content(user('The capital of France?', 'gpt-4o'))).toBe('Paris (gpt)');
    expect(await content(user('The capital of France?', 'llama'))).toBe('Paris (anyone)');
    expect(await content({ model: 'x', messages: [{ role: 'system', content: 'Be terse.' }, { role: 'user', content: 'hi' }] })).toBe('k.');
    expect((await anthropic(f, user('hi', 'claude-3-5-haiku'))).json.content).toEqual([{ type: 'text', text: 'claude default', citations: null }]);
  });

  it('applies a rule with `times` only to its first n matches', async () => {
    const f = await start({ rules: [{ times: 2, error: { status: 503 } }, { reply: 'recovered' }] });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await openai(f, user('x'))).status);
    expect(statuses).toEqual([503, 503, 200]);
  });

  it('returns tool calls in both dialects, and scripts the step after a tool result', async () => {
    const f = await start({
      rules: [
        { lastUser: 'weather', toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] },
        { lastTool: 'temp', reply: 'Cold.' },
      ],
    });
    const o = (await openai(f, user('weather in Oslo?'))).json.choices[0];
    expect(o.finish_reason).toBe('tool_calls');
    expect(o.message.content).toBeNull();
    expect(o.message.tool_calls[0]).toMatchObject({ type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } });

    const a = (await anthropic(f, user('weather in Oslo?'))).json;
    expect(a.stop_reason).toBe('tool_use');
    expect(a.content).toEqual([{ type: 'tool_use', id: expect.any(String), name: 'get_weather', input: { city: 'Oslo' }, caller: { type: 'direct' } }]);

    const after = await anthropic(f, {
      model: 'm',
      messages: [
        { role: 'user', content: 'weather in Oslo?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'get_weather', input: { city: 'Oslo' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '{"temp":-3}' }] },
      ],
    });
    expect(after.json.content[0].text).toBe('Cold.');
    expect(f.requests().at(-1)!.request.messages.at(-1)).toEqual({ role: 'tool', content: '{"temp":-3}', toolCallId: 't1' });
  });

  it('holds every answer back by the fixed latency, or a rule’s own', async () => {
    const f = await start({ latencyMs: 120, rules: [{ lastUser: 'fast', reply: 'zoom', latencyMs: 0 }] });
    let t = performance.now();
    await openai(f, user('slow please'));
    expect(performance.now() - t).toBeGreaterThanOrEqual(115);
    t = performance.now();
    await openai(f, user('fast please'));
    expect(performance.now() - t).toBeLessThan(100);
  });

  it('lists models, and rejects what the real APIs reject', async () => {
    const f = await start({ rules: [{ model: 'special-model', reply: 'x' }] });
    const models = (await (await fetch(`${f.url}/models`)).json()) as Json;
    expect(models.data.map((m: Json) => m.id)).toEqual(['fake-model', 'fake-judge', 'fake-embed-large', 'fake-embed-small', 'special-model']);
    expect((await post(`${f.url}/messages`, user('hi'))).json).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } });
    expect((await anthropic(f, { model: 'm', messages: [{ role: 'system', content: 'x' }] })).status).toBe(400);
    expect((await openai(f, { messages: [] })).json.error.message).toBe("'model' is required");
    expect((await openai(f, '{not json')).status).toBe(400);
    expect((await openai(f, { model: 'm', messages: [{ role: 'tool', content: 'x' }] })).json.error.message).toContain('tool_call_id');
  });

  it('requires a known key when apiKeys is set (Bearer or x-api-key)', async () => {
    const f = await start({ apiKeys: ['good'] });
    expect((await openai(f, user('x'))).status).toBe(401);
    expect((await openai(f, user('x'), { authorization: 'Bearer bad' })).json.error.message).toBe('Incorrect API key provided: bad');
    expect((await openai(f, user('x'), { authorization: 'Bearer good' })).status).toBe(200);
    expect((await openai(f, user('x'), { 'x-api-key': 'good' })).status).toBe(200);
  });
});

describe('fake LLM: judge answers', () => {
  const labels = { CLASS_ABSENT: 0.05, CLASS_PARTIALLY_PRESENT: 0.25, CLASS_FULLY_PRESENT: 0.7 };

  /**
   * The wire tokens as [token, p] pairs of their scripted alternatives: every position carries the
   * k alternatives asked for, as OpenAI's do, the unscripted ones below e^-20 (llm-server-tokens.ts).
   */
  const alternatives = (t: Json) => (t.top_logprobs as Json[]).filter((x) => (x.logprob as number) > -20).map((x) => [x.token as string, Math.exp(x.logprob as number)]);

  it('answers the most likely label, tokenised as OpenAI does, with log(p) of every label where the labels part', async () => {
    const f = await start({ rules: [{ model: 'judge', judge: { labels, format: 'bare' } }] });
    const { json } = await openai(f, user('Grade this reply', 'fake-judge', { logprobs: true, top_logprobs: 5 }));
    const choice = json.choices[0];
    expect(choice.message.content).toBe('CLASS_FULLY_PRESENT');
    // o200k_base: CLASS_FULLY_PRESENT is `CLASS` `_FULL` `Y` `_PRESENT`; the labels part at the second token.
    const tokens = choice.logprobs.content as Json[];
    expect(tokens.map((t) => t.token)).toEqual(['CLASS', '_FULL', 'Y', '_PRESENT']);
    expect(alternatives(tokens[1]!)).toEqual([
      ['_FULL', expect.closeTo(0.7, 12)],
      ['_PART', expect.closeTo(0.25, 12)],
      ['_AB', expect.closeTo(0.05, 12)],
    ]);
    expect(tokens[1]!.logprob).toBeCloseTo(Math.log(0.7), 12);
    // Where every label agrees (before the parting, and after it on the chosen path) the token is certain.
    for (const i of [0, 2, 3]) {
      expect(tokens[i]).toMatchObject({ token: tokens[i]!.token, logprob: 0, bytes: [...Buffer.from(tokens[i]!.token as string, 'utf8')] });
      expect(alternatives(tokens[i]!)).toEqual([[tokens[i]!.token, 1]]);
    }
    // Five alternatives at every position, as asked (top_logprobs: 5), none of them a label.
    for (const t of tokens) expect((t.top_logprobs as Json[]).length).toBe(5);
  });

  it('normalises weights that do not sum to 1, cuts to the k asked for, and drops p = 0', async () => {
    const f = await start({ rules: [{ judge: { labels: { yes: 3, no: 1, maybe: 0 }, format: 'bare' } }] });
    const all = (await openai(f, user('?', 'j', { logprobs: true, top_logprobs: 20 }))).json.choices[0].logprobs.content[0].top_logprobs;
    expect(all).toHaveLength(20);
    expect(alternatives({ top_logprobs: all })).toEqual([
      ['yes', expect.closeTo(0.75, 12)],
      ['no', expect.closeTo(0.25, 12)],
    ]);
    const one = (await openai(f, user('?', 'j', { logprobs: true, top_logprobs: 1 }))).json.choices[0].logprobs.content[0].top_logprobs;
    expect(one.map((t: Json) => t.token)).toEqual(['yes']);
  });

  it('can reason before the label; tokens concatenate to the content and the label is last, with its space', async () => {
    const f = await start({ rules: [{ judge: { labels: { A: 0.4, B: 0.6 }, reasoning: 'The reply cites its source.', format: 'bare' } }] });
    const choice = (await openai(f, user('?', 'j', { logprobs: true, top_logprobs: 2 }))).json.choices[0];
    expect(choice.message.content).toBe('The reply cites its source. B');
    const tokens = choice.logprobs.content as Json[];
    expect(tokens.map((t) => t.token)).toEqual(['The', ' reply', ' cites', ' its', ' source', '.', ' B']);
    expect(alternatives(tokens.at(-1)!)).toEqual([
      [' B', expect.closeTo(0.6, 12)],
      [' A', expect.closeTo(0.4, 12)],
    ]);
  });

  it('speaks Assay’s judge protocol by default: the letter glued to ">" as o200k_base writes it, ">A"… its alternatives', async () => {
    const f = await start({ rules: [{ judge: { labels: { A: 0.2, B: 0.8 }, reasoning: 'Mostly there.' } }] });
    const choice = (await openai(f, user('?', 'j', { logprobs: true, top_logprobs: 5 }))).json.choices[0];
    expect(choice.message.content).toBe('<reflection>Mostly there.</reflection>\n<answer>B</answer>');
    const tokens = choice.logprobs.content as Json[];
    expect(tokens.map((t) => t.token)).toEqual(['<', 'reflection', '>', 'Mostly', ' there', '.</', 'reflection', '>\n', '<', 'answer', '>B', '</', 'answer', '>']);
    expect(alternatives(tokens[10]!)).toEqual([
      ['>B', expect.closeTo(0.8, 12)],
      ['>A', expect.closeTo(0.2, 12)],
    ]);
  });

  it('tokenises with the model’s own tokenizer: cl100k_base for gpt-4 glues ">F", o200k_base for gpt-4o does not', async () => {
    const f = await start({ rules: [{ judge: { labels: { E: 0.3, F: 0.7 }, reasoning: 'ok' } }] });
    const tokensOf = async (model: string) => (await openai(f, user('?', model, { logprobs: true, top_logprobs: 5 }))).json.choices[0].logprobs.content as Json[];
    const gpt4 = await tokensOf('gpt-4');
    const at4 = gpt4.findIndex((t) => t.token === '>F');
    expect(alternatives(gpt4[at4]!)).toEqual([['>F', expect.closeTo(0.7, 12)], ['>E', expect.closeTo(0.3, 12)]]);
    const gpt4o = await tokensOf('gpt-4o-mini');
    const at4o = gpt4o.findIndex((t) => t.token === 'F');
    // The bare `>` holds F's mass against the glued `>E`; F then follows, certain on that path.
    expect(alternatives(gpt4o[at4o - 1]!)).toEqual([['>', expect.closeTo(0.7, 12)], ['>E', expect.closeTo(0.3, 12)]]);
    expect(alternatives(gpt4o[at4o]!)).toEqual([['F', 1]]);
  });

  it('samples deterministically by attempt when asked at temperature > 0 without logprobs', async () => {
    const f = await start({ rules: [{ judge: { labels: { A: 0.25, B: 0.75 } } }] });
    const answers: string[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      const res = await fetch(`${f.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-assay-attempt': String(attempt) },
        body: JSON.stringify({ model: 'j', temperature: 1, messages: [{ role: 'user', content: 'grade' }] }),
      });
      answers.push(((await res.json()) as Json).choices[0].message.content.match(/<answer>(.)<\/answer>/)[1]);
    }
    expect(answers.filter((a) => a === 'B')).toHaveLength(6);
  });

  it('returns no logprobs unless asked, and only the label text over Anthropic', async () => {
    const f = await start({ rules: [{ judge: { labels, format: 'bare' } }] });
    expect((await openai(f, user('?'))).json.choices[0].logprobs).toBeNull();
    expect((await anthropic(f, user('?'))).json.content[0].text).toBe('CLASS_FULLY_PRESENT');
  });
});

describe('fake LLM: faults', () => {
  async function outcomes(f: FakeLlm, n: number, model = 'fake-model'): Promise<string[]> {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      const { status, json } = await openai(f, user(`prompt number ${i}`, model));
      out.push(status !== 200 ? String(status) : json.choices[0].message.content === GARBAGE ? 'garbage' : 'ok');
    }
    return out;
  }

  it('fails a seeded, deterministic fraction of requests: 429 with retry-after, 500, garbage', async () => {
    const faults = { rateLimited: 0.1, serverError: 0.1, malformed: 0.1 };
    const first = await outcomes(await start({ faults, seed: 7 }), 400);
    await fake!.close();
    const again = await outcomes(await start({ faults, seed: 7 }), 400);
    await fake!.close();
    const other = await outcomes(await start({ faults, seed: 8 }), 400);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    const count = (k: string) => first.filter((o) => o === k).length;
    // 400 draws at p = 0.1: the count is 40 ± 6 (σ); allow ±3σ.
    for (const k of ['429', '500', 'garbage']) expect(count(k)).toBeGreaterThan(22);
    for (const k of ['429', '500', 'garbage']) expect(count(k)).toBeLessThan(58);
    expect(count('ok')).toBe(400 - count('429') - count('500') - count('garbage'));
  });

  it('sends retry-after 0.05 s with a 429 (configurable), and lets a retry of the same request succeed', async () => {
    const f = await start({ faults: { rateLimited: 1 } });
    const res = await openai(f, user('x'));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('0.05');
    f.setFaults({ rateLimited: 1, retryAfter: '2' });
    expect((await openai(f, user('x'))).headers.get('retry-after')).toBe('2');
    f.setFaults({ rateLimited: 0.5 });
    const statuses = [];
    for (let i = 0; i < 20 && statuses.at(-1) !== 200; i++) statuses.push((await openai(f, user('same request'))).status);
    expect(statuses.at(-1)).toBe(200);
  });

  it('scopes faults to model patterns', async () => {
    const f = await start({ faults: [{ model: 'flaky', serverError: 1 }] });
    expect(await outcomes(f, 5, 'flaky-model')).toEqual(Array(5).fill('500'));
    expect(await outcomes(f, 5, 'solid-model')).toEqual(Array(5).fill('ok'));
  });

  it('hangs until the client gives up; the hung call never counts as completed; close() still returns', async () => {
    const f = await start({ faults: { hang: 1 } });
    const controller = new AbortController();
    const p = fetch(`${f.url}/chat/completions`, { method: 'POST', body: JSON.stringify(user('x')), signal: controller.signal });
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    await expect(p).rejects.toThrow();
    expect(f.calls()).toBe(1);
    expect(f.callsByKey().size).toBe(0);
    void fetch(`${f.url}/chat/completions`, { method: 'POST', body: JSON.stringify(user('y')) }).catch(() => {});
    await new Promise((r) => setTimeout(r, 50));
    const t = performance.now();
    await f.close();
    fake = undefined;
    expect(performance.now() - t).toBeLessThan(1_000);
  });
});

describe('fake LLM: counters', () => {
  it('counts every request, and completed ones per key (model, messages, temperature, attempt)', async () => {
    const f = await start({ faults: [{ model: 'broken', serverError: 1 }] });
    await openai(f, user('a'));
    await openai(f, user('a', 'fake-model', { temperature: 0.7 }));
    await openai(f, user('a'), { 'x-assay-attempt': '1' });
    await openai(f, user('a', 'broken'));
    expect(f.calls()).toBe(4);
    expect([...f.callsByKey().values()]).toEqual([1, 1, 1]);
    expect(f.duplicateCompletedCalls()).toBe(0);

    await openai(f, user('a'));
    expect(f.duplicateCompletedCalls()).toBe(1);
    // The same request over another dialect, attempt in the body: the same key, so a second duplicate.
    await anthropic(f, { ...user('a'), metadata: { attempt: 1 } });
    expect(f.duplicateCompletedCalls()).toBe(2);
    expect(f.stats()).toMatchObject({ calls: 6, completed: 5, duplicateCompletedCalls: 2 });

    f.reset();
    expect(f.stats()).toEqual({ calls: 0, completed: 0, duplicateCompletedCalls: 0, byKey: {}, embeddings: { calls: 0, inputs: 0, byModel: {}, peakInFlight: 0 } });
    expect(f.requests()).toEqual([]);
  });

  it('does not count a reply the client stopped waiting for', async () => {
    const f = await start({ latencyMs: 300 });
    await expect(fetch(`${f.url}/chat/completions`, { method: 'POST', body: JSON.stringify(user('x')), signal: AbortSignal.timeout(50) })).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 400));
    expect(f.calls()).toBe(1);
    expect(f.callsByKey().size).toBe(0);
  });
});

describe('fake LLM: a concurrency limit (a rate-limited account)', () => {
  it('answers 429 to a request arriving while maxConcurrent are being answered, and counts what it saw', async () => {
    const f = await start({ maxConcurrent: 2, latencyMs: 80 });
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((c) => openai(f, user(c))));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 429, 429]);
    expect(results.find((r) => r.status === 429)!.headers.get('retry-after')).toBe('0.05');
    expect(f.concurrency()).toEqual({ inFlight: 0, peak: 2, refused: 2 });
    f.setMaxConcurrent(null);
    expect((await Promise.all(['e', 'f', 'g'].map((c) => openai(f, user(c))))).every((r) => r.status === 200)).toBe(true);
    expect(f.concurrency().peak).toBe(3);
  });
});

describe('fake LLM: remote control', () => {
  it('takes rules and faults as JSON, validates them, and reports stats', async () => {
    const f = await start({ rules: [{ reply: 'initial' }] });
    const admin = fakeLlmAdmin(f.url);
    await admin.setRules([{ lastUser: /hello/i, reply: 'hi there' }]);
    expect((await openai(f, user('HELLO'))).json.choices[0].message.content).toBe('hi there');
    await admin.setFaults({ serverError: 1 });
    expect((await openai(f, user('HELLO'))).status).toBe(500);
    expect(await admin.stats()).toMatchObject({ calls: 2, completed: 1 });
    await expect(admin.setRules([{ reply: 'x', error: { status: 500 } }] as never)).rejects.toThrow(/one of: reply and\/or toolCalls, judge, error, hang/);
    await admin.reset();
    expect((await openai(f, user('HELLO'))).json.choices[0].message.content).toBe('initial');
  });

  it('speaks a custom JSON dialect for systems under test', async () => {
    const f = await start({ rules: [{ lastUser: 'book', toolCalls: [{ name: 'book_table', arguments: { people: 2 } }], reply: 'Booked.' }] });
    const { json } = await post(`${f.origin}/custom/chat`, { input: 'Please book a table' });
    expect(json).toEqual({
      id: 'custom-fake-1',
      model: 'custom-assistant',
      system_fingerprint: defaultFingerprint('custom-assistant'),
      output: { text: 'Booked.', tool_calls: [{ tool: 'book_table', args: { people: 2 } }] },
      usage: { input: 4, output: 2 },
    });
  });

  it('changes what a model says it is (model field, fingerprint, openai-model header) at run time, with its behaviour', async () => {
    const f = await start({ rules: [{ reply: 'old behaviour' }] });
    const admin = fakeLlmAdmin(f.origin);
    const first = await openai(f, user('Hi'));
    expect(first.json).toMatchObject({ model: 'fake-model', system_fingerprint: defaultFingerprint('fake-model') });
    expect(first.headers.get('openai-model')).toBe('fake-model');
    expect(first.headers.get('x-request-id')).toBe('req_fake_1');

    // The provider swaps the snapshot behind the id: new behaviour, new served identity.
    await admin.setRules([{ model: 'fake-model', reply: 'new behaviour' }]);
    await admin.setServed([{ model: '^fake-model$', servedModel: 'fake-model-2026-12-01', fingerprint: 'fp_swapped' }]);
    const second = await openai(f, user('Hi'));
    expect(second.json).toMatchObject({ model: 'fake-model-2026-12-01', system_fingerprint: 'fp_swapped', choices: [{ message: { content: 'new behaviour' } }] });
    expect(second.headers.get('openai-model')).toBe('fake-model-2026-12-01');
    // A rule's own served fields win over the table.
    await admin.setRules([{ reply: 'pinned', fingerprint: 'fp_rule' }]);
    expect((await openai(f, user('Hi'))).json).toMatchObject({ model: 'fake-model-2026-12-01', system_fingerprint: 'fp_rule' });
    await expect(admin.setServed([{ servedModel: 'x' }] as never)).rejects.toThrow(/HTTP 400/);
    await admin.reset();
    expect((await openai(f, user('Hi'))).json).toMatchObject({ model: 'fake-model', system_fingerprint: defaultFingerprint('fake-model') });
  });
});

describe('fake LLM: batched judge prompts follow the per-point rules', () => {
  const questions: JudgeQuestion[] = [judgeScaleQuestion('Mentions the order number'), { type: 'noul', statement: 'The reply is polite.' }, judgeScaleQuestion('Offers a refund')];
  const reply = 'Your order 48213 ships today, thank you!';
  const rules: RuleInput[] = [
    { name: 'order', system: /impartial evaluator/, lastUser: /<QUESTION>\nMentions the order number\n<\/QUESTION>/, judge: { labels: { D: 0.3, E: 0.7 }, reasoning: 'Number given.' } },
    { name: 'polite', system: /impartial evaluator/, lastUser: /B\. True: the statement holds/, judge: { labels: { A: 0.1, B: 0.9 } } },
    // "Offers a refund" has no rule: asked alone it gets no label, so in a batch it gets no line.
  ];
  const body = (messages: unknown, extra: Json = {}) => ({ model: 'judge', messages, ...extra });

  it('answers each question with the distribution its per-point prompt gets, read at each answer’s own token position', async () => {
    const f = await start({ rules });
    const batch = buildJudgeBatchRequest({ approach: 'standard', questions, reply });
    const choice = (await openai(f, body(batch.messages, { logprobs: true, top_logprobs: 5 }))).json.choices[0];
    expect(choice.message.content).toBe('<reflection>Number given.</reflection>\n<answers>\nA: 5\nB: 2\n</answers>');
    const tokens = (choice.logprobs.content as Json[]).map((t) => ({ token: t.token as string, logprob: t.logprob as number, top: (t.top_logprobs as Json[]).map((a) => ({ token: a.token as string, logprob: a.logprob as number })) }));
    expect(tokens.map((t) => t.token).join('')).toBe(choice.message.content);
    const batched = readJudgeBatchOutput(choice.message.content, batch, tokens).answers;

    for (const [i, q] of questions.entries()) {
      const single = buildJudgeRequest({ approach: 'standard', question: q, reply });
      const c = (await openai(f, body(single.messages, { logprobs: true, top_logprobs: 5 }))).json.choices[0];
      const st = (c.logprobs.content as Json[]).map((t) => ({ token: t.token as string, logprob: t.logprob as number, top: (t.top_logprobs as Json[]).map((a) => ({ token: a.token as string, logprob: a.logprob as number })) }));
      const alone = readJudgeOutput(c.message.content, single, st);
      const together = batched[i]!;
      expect(together.ok).toBe(alone.ok);
      if (alone.ok && together.ok) {
        expect(together.distribution.method).toBe('logprobs');
        for (const [label, p] of Object.entries(alone.distribution.probs)) expect(together.distribution.probs[label]).toBeCloseTo(p, 12);
      }
    }
    expect(batched[2]).toEqual({ letter: 'C', ok: false, error: "the judge's answers have no line for question C" });
    expect(f.requests()[0]!.rule).toBe('order, polite');
  });

  it('samples a batch at the same per-attempt quantiles as per-point samples', async () => {
    const f = await start({ rules: [{ system: /impartial evaluator/, judge: { labels: { A: 0.25, C: 0.75 } } }] });
    const batch = buildJudgeBatchRequest({ approach: 'standard', questions: questions.slice(0, 1), reply });
    const single = buildJudgeRequest({ approach: 'standard', question: questions[0]!, reply });
    const sample = async (messages: unknown, attempt: number) => {
      const res = await fetch(`${f.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-assay-attempt': String(attempt) }, body: JSON.stringify(body(messages, { temperature: 1 })) });
      return ((await res.json()) as Json).choices[0].message.content as string;
    };
    const outs = { batch: [] as string[], single: [] as string[] };
    for (let a = 0; a < 8; a++) {
      outs.batch.push(await sample(batch.messages, a));
      outs.single.push(await sample(single.messages, a));
    }
    const b = readJudgeBatchSamples(outs.batch, batch).answers[0]!;
    const s = readJudgeSamples(outs.single, single);
    if (!b.ok || !s.ok) throw new Error('both should read');
    expect(b.distribution.probs).toEqual(s.distribution.probs);
    expect(s.distribution.probs.CLASS_PARTIALLY_PRESENT).toBe(6 / 8);
  });

  it('an error rule of any question answers the whole batched call', async () => {
    const f = await start({ rules: [{ lastUser: /Offers a refund/, error: { status: 503 } }, ...rules] });
    const batch = buildJudgeBatchRequest({ approach: 'standard', questions, reply });
    expect((await openai(f, body(batch.messages))).status).toBe(503);
  });
});
