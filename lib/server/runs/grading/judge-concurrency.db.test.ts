/**
 * In-process, judge calls are limited by the judge's provider, not the cell's: the gateway
 * keeps one limiter per provider of each call. Between the runner and the fake LLM server sits
 * a meter (a plain HTTP relay, at the network boundary) that counts the calls in flight per
 * provider: with one slot per provider, generation (openrouter) and judging (openai) each
 * have one call on the wire at most, and they overlap, since neither waits for the other's slot.
 * (Under Inngest the same holds across workers through each grading unit's concurrency keys,
 * the judge panel's providers: runs/units/kinds.ts.)
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { executeRun } from '../engine/execute-run';
import { requestRun } from '../request-run';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../runs.testkit';

let t: TestDatabase;
let fake: FakeLlm;
let meter: Server;
let meterUrl: string;
const inFlight = { model: 0, judge: 0 };
const peak = { model: 0, judge: 0, both: 0 };

const prompts = Array.from({ length: 6 }, (_, i) => `- id: p${i}\n  prompt: Say ${i}.\n  should:\n    - Says ${i}`).join('\n');
const BLUEPRINT = `title: Judge slots\nmodels: [openrouter:model-x]\n---\n${prompts}\n`;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ latencyMs: 40, rules: [{ model: 'judge-a', judge: { labels: { E: 1 } } }] });
  meter = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      const kind = /"model"\s*:\s*"judge-/.test(body.toString()) ? 'judge' : 'model';
      inFlight[kind]++;
      peak[kind] = Math.max(peak[kind], inFlight[kind]);
      peak.both = Math.max(peak.both, inFlight.model + inFlight.judge);
      try {
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k)) as [string, string][]);
        const r = await fetch(`${fake.origin}${req.url}`, { method: req.method, headers, ...(req.method === 'POST' ? { body } : {}) });
        const text = await r.text();
        res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
        res.end(text);
      } finally {
        inFlight[kind]--;
      }
    });
  });
  await new Promise<void>((resolve) => meter.listen(0, '127.0.0.1', resolve));
  meterUrl = `http://127.0.0.1:${(meter.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => meter?.close(resolve));
  await fake?.close();
  await t?.close();
});

describe(`judge concurrency in process (${process.env.ASSAY_TEST_DB})`, () => {
  it('judge calls take a slot of the judge’s provider, not of the model’s', async () => {
    const { blueprintId } = await storeBlueprint(t.db, 'judge-slots.yml', BLUEPRINT);
    const deps = await fakeDeps(t.db, meterUrl, { concurrency: 1 });
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', judges: ['openai:judge-a'], bypassCache: true }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, runId)).toBe('completed');
    expect(fake.requests().filter((r) => r.request.model === 'judge-a')).toHaveLength(6);
    expect(peak).toEqual({ model: 1, judge: 1, both: 2 });
  });
});
