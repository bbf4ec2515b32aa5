/**
 * soev criteria end to end through the real run pipeline: a blueprint with `defaults:`, a
 * `citations:` mapping over an HTTP system's JSON body, a `corpus:` file and `- kind:` entries,
 * run against the fake provider's custom endpoint (which answers with the reply and a `cite`
 * tool call carrying the unit id); every verdict read back from the database. Scores by hand:
 *
 *   termijn: max_length (gate) pass; language pass w1; required fail w2 (1 of 2 groups);
 *            forbidden pass w1; mentions_in_corpus pass w1  → 3 / 5 = 0.6, not passed
 *   engels:  max_length (gate) pass; language fail w1; required n/a      → 0 / 1 = 0, not passed
 *   no corpus file: mentions_in_corpus is an `error` with its reason (not counted) → 2 / 4 = 0.5
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { executeRun } from '../engine/execute-run';
import { LlmGateway } from '../calls/gateway';
import { requestRun } from '../request-run';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../runs.testkit';
import type { RunDeps } from '../engine/deps';

let t: TestDatabase;
let fake: FakeLlm;

const UNITS = ['{"id": "law/awb/6/7", "text": "De termijn voor het indienen van een bezwaarschrift bedraagt zes weken."}', '{"id": "law/awb/6/8", "text": "…"}'].join('\n');

const blueprint = (origin: string, corpus: string) => `title: criteria end to end
models:
  - id: bot
    url: ${origin}/custom/chat
    response: { content: "$.output.text", tool_calls: "$.output.tool_calls" }
citations:
  mapping: { path: output.tool_calls.args.unit_id }
messages: { no_answer: "Daar kan ik geen antwoord op geven." }
corpus: { path: ${corpus}, law_names: { law/awb: [Awb] } }
defaults:
  - kind: reply.max_length
    max: 500
    gate: true
---
- id: termijn
  prompt: Hoe lang is de bezwaartermijn?
  expect:
    behaviour: answer
    sources:
      required: { awb: [law/awb/6], wmo: [law/wmo] }
      forbidden: [law/old]
  criteria:
    - kind: reply.language
      language: nl
    - kind: citations.required
      weight: 2
    - kind: citations.forbidden
    - kind: citations.mentions_in_corpus
- id: engels
  prompt: English please
  criteria:
    - kind: reply.language
      language: nl
    - kind: citations.required
`;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({
    rules: [
      { lastUser: 'bezwaartermijn', reply: 'De bezwaartermijn is zes weken, zie artikel 6:7 Awb.', toolCalls: [{ name: 'cite', arguments: { unit_id: 'law/awb/6/7' } }] },
      { lastUser: 'English', reply: 'The objection period is six weeks under Dutch administrative law.' },
    ],
  });
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

async function deps(readBesideBlueprint?: RunDeps['readBesideBlueprint']): Promise<RunDeps> {
  const base = await fakeDeps(t.db, fake.url);
  const gateway = new LlmGateway({ db: t.db, providers: { keys: {}, baseUrlOverride: fake.url, custom: { allowedOrigins: [fake.origin], env: {} } }, concurrency: 4, retry: { maxAttempts: 2, baseDelayMs: 5, maxDelayMs: 50 }, timeoutMs: 10_000 });
  return { ...base, gateway, ...(readBesideBlueprint ? { readBesideBlueprint } : {}) };
}

async function verdictsOf(runId: string, promptKey: string) {
  return t.db.verdict.findMany({ where: { runId, promptKey }, orderBy: { pointIndex: 'asc' }, select: { kind: true, fn: true, args: true, status: true, score: true, weight: true, gate: true, detail: true, data: true, method: true } });
}

describe(`criterion points in a run (${process.env.ASSAY_TEST_DB})`, () => {
  it('grades every criterion against the stored reply and JSON body, and scores the attempt as soev does', async () => {
    const read: string[] = [];
    const d = await deps(async (path, rel) => {
      read.push(`${path} + ${rel}`);
      return UNITS;
    });
    const { blueprintId } = await storeBlueprint(t.db, 'soev/criteria.yml', blueprint(fake.origin, 'units.jsonl'));
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli' }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(d, runId)).toBe('completed');
    expect(read).toEqual(['soev/criteria.yml + units.jsonl']);

    const reply = await t.db.reply.findFirstOrThrow({ where: { runId, promptKey: 'termijn' } });
    expect(reply.structured).toMatchObject({ output: { text: 'De bezwaartermijn is zes weken, zie artikel 6:7 Awb.', tool_calls: [{ tool: 'cite', args: { unit_id: 'law/awb/6/7' } }] } });

    const termijn = await verdictsOf(runId, 'termijn');
    expect(termijn.map((v) => [v.fn, v.status, v.score, v.weight, v.gate])).toEqual([
      ['reply.max_length', 'pass', 1, 1, true],
      ['reply.language', 'pass', 1, 1, false],
      ['citations.required', 'fail', 0, 2, false],
      ['citations.forbidden', 'pass', 1, 1, false],
      ['citations.mentions_in_corpus', 'pass', 1, 1, false],
    ]);
    expect(termijn.every((v) => v.kind === 'criterion' && v.method === 'criterion')).toBe(true);
    expect(termijn[0]!.args).toEqual({ max: 500, unit: 'characters' });
    expect(termijn[2]).toMatchObject({ detail: '1 of 2 required groups cited; missing: wmo', data: { covered: ['awb'], missing: ['wmo'], cited: ['law/awb/6/7'] } });
    expect(termijn[4]!.detail).toBe('all 1 cited or named sources are in the corpus');

    const engels = await verdictsOf(runId, 'engels');
    expect(engels.map((v) => [v.fn, v.status, v.score])).toEqual([
      ['reply.max_length', 'pass', 1],
      ['reply.language', 'fail', 0],
      ['citations.required', 'not_applicable', null],
    ]);
    expect(engels[1]!.detail).toMatch(/^1 of 1 sentences not in nl/);
    expect(engels[2]!.detail).toBe('the case names no required sources (expect.sources.required)');

    const attempts = await t.db.attemptScore.findMany({ where: { runId }, orderBy: { promptKey: 'asc' }, select: { promptKey: true, score: true, passed: true, errorCount: true, gateFailed: true } });
    expect(attempts).toEqual([
      { promptKey: 'engels', score: 0, passed: false, errorCount: 0, gateFailed: false },
      { promptKey: 'termijn', score: 0.6, passed: false, errorCount: 0, gateFailed: false },
    ]);
  });

  it('without a readable corpus file, mentions_in_corpus is an error with its reason, left out of the score', async () => {
    const d = await deps();
    const { blueprintId } = await storeBlueprint(t.db, 'soev/no-corpus.yml', blueprint(fake.origin, 'missing.jsonl'));
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli' }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(d, runId)).toBe('completed');
    const termijn = await verdictsOf(runId, 'termijn');
    expect(termijn[4]).toMatchObject({ status: 'error', score: null });
    expect(termijn[4]!.detail).toMatch(/the corpus file missing\.jsonl cannot be read here/);
    const attempt = await t.db.attemptScore.findFirstOrThrow({ where: { runId, promptKey: 'termijn' } });
    expect(attempt).toMatchObject({ score: 0.5, passed: false, errorCount: 1 });
  });
});
