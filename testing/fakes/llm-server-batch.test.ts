/**
 * The fake's batch APIs on the wire (raw HTTP, no SDK): OpenAI's status progression
 * validating → in_progress → completed with request_counts, output and error files; Anthropic's
 * processing_status, results_url and per-line result types; both scripted over `/__fake/batch`
 * and read back over `/__fake/billing`, as another process (Playwright) would.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeLlmAdmin } from './llm-server-admin';
import { startFakeLlm, type FakeLlm } from './llm-server';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ rules: [{ lastUser: 'capital', reply: 'Paris is the capital.' }] });
});
afterAll(() => fake?.close());
beforeEach(() => fake.reset());

const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> });
const line = (id: string, text: string) => JSON.stringify({ custom_id: id, method: 'POST', url: '/v1/chat/completions', body: { model: 'fake-model', messages: [{ role: 'user', content: text }] } });

async function upload(jsonl: string): Promise<string> {
  const form = new FormData();
  form.append('purpose', 'batch');
  form.append('file', new Blob([jsonl], { type: 'application/jsonl' }), 'in.jsonl');
  const { status, body } = await json(await fetch(`${fake.url}/files`, { method: 'POST', body: form }));
  expect(status).toBe(200);
  expect(body).toMatchObject({ object: 'file', purpose: 'batch', filename: 'in.jsonl', status: 'processed' });
  return body.id as string;
}

describe('the fake’s OpenAI Batch API', () => {
  it('goes validating → in_progress → completed, with counts, an output file and an error file', async () => {
    const admin = fakeLlmAdmin(fake.origin);
    await admin.setBatch({ delayMs: 400, fail: { lastUser: 'poem' } });
    const file = await upload([line('a-a0', 'the capital of France?'), line('b-a0', 'a poem'), line('c-a0', 'a question')].join('\n'));
    const created = await json(await fetch(`${fake.url}/batches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input_file_id: file, endpoint: '/v1/chat/completions', completion_window: '24h' }) }));
    expect(created.body).toMatchObject({ object: 'batch', status: 'validating', input_file_id: file, output_file_id: null, request_counts: { total: 3, completed: 0, failed: 0 } });
    const id = created.body.id as string;
    await new Promise((r) => setTimeout(r, 150));
    expect((await json(await fetch(`${fake.url}/batches/${id}`))).body.status).toBe('in_progress');
    await new Promise((r) => setTimeout(r, 300));
    const done = (await json(await fetch(`${fake.url}/batches/${id}`))).body;
    expect(done).toMatchObject({ status: 'completed', request_counts: { total: 3, completed: 2, failed: 1 } });
    const out = (await (await fetch(`${fake.url}/files/${done.output_file_id as string}/content`)).text()).trim().split('\n').map((l) => JSON.parse(l) as { custom_id: string; response: { status_code: number; body: { choices: { message: { content: string } }[] } } });
    expect(out.map((l) => l.custom_id)).toEqual(['a-a0', 'c-a0']);
    expect(out[0]!.response.status_code).toBe(200);
    expect(out[0]!.response.body.choices[0]!.message.content).toBe('Paris is the capital.');
    const err = (await (await fetch(`${fake.url}/files/${done.error_file_id as string}/content`)).text()).trim().split('\n').map((l) => JSON.parse(l) as { custom_id: string; response: { status_code: number } });
    expect(err).toMatchObject([{ custom_id: 'b-a0', response: { status_code: 500 } }]);
    const billing = await admin.billing();
    expect(billing).toMatchObject({ batchLines: 2, liveCalls: 0, batches: { created: { openai: 1, anthropic: 0 } } });
    expect(billing.batchUsd).toBeGreaterThan(0);
  });

  it('refuses a file that is not a batch of chat completions, saying which line', async () => {
    const file = await upload(`${line('a-a0', 'x')}\n{"custom_id":"b","method":"GET","url":"/v1/models","body":{}}\n`);
    const r = await json(await fetch(`${fake.url}/batches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input_file_id: file, endpoint: '/v1/chat/completions', completion_window: '24h' }) }));
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toMatch(/line 2/);
  });
});

describe('the fake’s Anthropic Message Batches', () => {
  it('is in_progress until it ends, then its results_url gives each line’s result type', async () => {
    fake.setBatch({ delayMs: 200, fail: { lastUser: 'poem', as: 'expired' } });
    const params = (text: string) => ({ model: 'fake-model', max_tokens: 100, messages: [{ role: 'user', content: text }] });
    const created = await json(await fetch(`${fake.url}/messages/batches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ requests: [{ custom_id: 'a-a0', params: params('the capital?') }, { custom_id: 'b-a0', params: params('a poem') }] }) }));
    expect(created.body).toMatchObject({ type: 'message_batch', processing_status: 'in_progress', results_url: null, request_counts: { processing: 2 } });
    await new Promise((r) => setTimeout(r, 250));
    const ended = (await json(await fetch(`${fake.url}/messages/batches/${created.body.id as string}`))).body;
    expect(ended).toMatchObject({ processing_status: 'ended', request_counts: { processing: 0, succeeded: 1, expired: 1, errored: 0, canceled: 0 } });
    const results = (await (await fetch(ended.results_url as string)).text()).trim().split('\n').map((l) => JSON.parse(l) as { custom_id: string; result: { type: string; message?: { content: { text: string }[] } } });
    expect(results.map((r) => [r.custom_id, r.result.type])).toEqual([['a-a0', 'succeeded'], ['b-a0', 'expired']]);
    expect(results[0]!.result.message!.content[0]!.text).toBe('Paris is the capital.');
  });

  it('refuses a custom_id Anthropic would refuse', async () => {
    const r = await fetch(`${fake.url}/messages/batches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ requests: [{ custom_id: 'has spaces', params: { model: 'm', max_tokens: 1, messages: [] } }] }) });
    expect(r.status).toBe(400);
  });
});
