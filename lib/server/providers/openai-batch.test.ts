/**
 * Batches that end without answering their lines, as the providers document them (OpenAI Batch
 * API reference: a Batch whose `status` is `failed` carries `errors.data[]`, one that is `expired`
 * has its unfinished lines in the error file with code `batch_expired`; Anthropic Message Batches:
 * result.type `expired`): each adapter reports the batch's own reason, against the fake's batch APIs.
 */
import type { Batch } from 'openai/resources/batches';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { AnthropicClient } from './anthropic';
import type { BatchApi, BatchLine, BatchState } from './batch-types';
import { batchError } from './openai-batch';
import { OpenAiCompatibleClient } from './openai-compatible';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ rules: [{ lastUser: 'capital', reply: 'Paris.' }] });
});
afterAll(() => fake?.close());
beforeEach(() => fake.reset());

const lines: BatchLine[] = ['a', 'b', 'c'].map((id) => ({ customId: `${id}-a0`, request: { model: 'fake-model', messages: [{ role: 'user', content: `the capital of France? (${id})` }] } }));
const openai = (): BatchApi => new OpenAiCompatibleClient({ provider: 'openai', apiKey: 'k', baseURL: fake.url }).batch!;

async function ended(api: BatchApi, id: string): Promise<BatchState> {
  for (let i = 0; i < 100; i++) {
    const s = await api.retrieve(id);
    if (s.ended) return s;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`batch ${id} never ended`);
}

describe('an OpenAI batch that failed or expired', () => {
  it('failed on the enqueued-token limit: the batch says why, as a rate limit to wait out, and no line ran', async () => {
    fake.setBatch({ end: { status: 'failed' } });
    const api = openai();
    const state = await ended(api, (await api.submit(lines)).id);
    expect(state.status).toBe('failed');
    expect(state.error).toMatchObject({ kind: 'rate_limited', provider: 'openai' });
    expect(state.error!.message).toMatch(/^openai: batch batch_\w+ failed: token_limit_exceeded: Enqueued token limit reached for fake-model/);
    expect(await api.results(state.id)).toEqual([]);
    expect(fake.batchStats().lines).toBe(0);

    // The wire object as openai-node types it: status, errors, failed_at, no files.
    const wire = (await (await fetch(`${fake.url}/batches/${state.id}`)).json()) as Batch;
    expect(wire).toMatchObject({ status: 'failed', output_file_id: null, error_file_id: null, errors: { object: 'list', data: [{ code: 'token_limit_exceeded', line: null, param: null }] } });
    expect(wire.failed_at).toEqual(expect.any(Number));
  });

  it('failed validation: a permanent bad request naming the code and the line', async () => {
    fake.setBatch({ end: { status: 'failed', errors: [{ code: 'invalid_request', message: 'The model `gpt-x` does not exist.', line: 2, param: 'body.model' }] } });
    const api = openai();
    const state = await ended(api, (await api.submit(lines)).id);
    expect(state.error).toMatchObject({ kind: 'bad_request', message: expect.stringContaining('invalid_request (line 2): The model `gpt-x` does not exist.') });
  });

  it('expired: the answered lines are read, the rest fail as batch_expired (retryable), and the batch says it expired', async () => {
    fake.setBatch({ end: { status: 'expired', answered: 1 } });
    const api = openai();
    const state = await ended(api, (await api.submit(lines)).id);
    expect(state.status).toBe('expired');
    expect(state.error).toMatchObject({ kind: 'retryable', message: expect.stringMatching(/expired \(its 24-hour completion window passed\)/) });
    const results = await api.results(state.id);
    expect(results.map((r) => [r.customId, r.response?.content ?? r.error?.kind])).toEqual([
      ['a-a0', 'Paris.'],
      ['b-a0', 'retryable'],
      ['c-a0', 'retryable'],
    ]);
    expect(results[1]!.error!.message).toContain('batch_expired');
  });

  it('says nothing for a batch that completed or was cancelled', () => {
    expect(batchError('openai', { id: 'batch_1', status: 'completed', errors: undefined })).toBeUndefined();
    expect(batchError('openai', { id: 'batch_1', status: 'cancelled', errors: undefined })).toBeUndefined();
    expect(batchError('openai', { id: 'batch_1', status: 'failed', errors: undefined })!.message).toBe('openai: batch batch_1 failed: no reason given');
  });
});

describe('an Anthropic message batch that expired', () => {
  it('reads answered lines and reports the expired ones as not run (retryable)', async () => {
    fake.setBatch({ end: { status: 'expired', answered: 2 } });
    const api = new AnthropicClient({ apiKey: 'k', baseURL: fake.origin }).batch!;
    const state = await ended(api, (await api.submit(lines)).id);
    const results = await api.results(state.id);
    expect(results.map((r) => [r.customId, r.response?.content ?? r.error?.message])).toEqual([
      ['a-a0', 'Paris.'],
      ['b-a0', 'Paris.'],
      ['c-a0', 'anthropic: batch line expired before it ran'],
    ]);
    expect(results[2]!.error!.kind).toBe('retryable');
  });
});
