/**
 * The run pipeline's figures (issues 4 and 15), each recorded with reportTarget/reportFigure:
 *  1. Efficiency: a run of 2,000 model calls and their 2,000 judge calls against the fake LLM
 *     with a fixed 100 ms latency and 20 slots, through the real runner, gateway, cache and
 *     database, compared with the ideal (calls × latency ÷ concurrency). Target ≥ 0.9.
 *  2. Saturation: the same run at 0 ms latency: calls per second (target ≥ 400), the provider
 *     slots in flight (mean and max over the run, measured in the gateway), and the runner's CPU
 *     per provider call (process.cpuUsage, robust to other load; target ≤ 2 ms). The provider's
 *     HTTP client alone (same calls, no pipeline) is measured beside it, as the floor.
 *  3. Verdict write rate into PostgreSQL through the pipeline's own write path (storeGrading:
 *     group commit of each reply's verdicts, attempt score and counters, 64 in flight as the
 *     runner does), as a ratio to a plain COPY of the same rows. Target ≥ 0.8.
 * 1–3 on the PostgreSQL server at 127.0.0.1:5432 (ASSAY_TEST_PG_URL), in a fresh database; 1–2
 * again on PGlite over its socket server (the embedded default), as figures.
 */
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import pLimit from 'p-limit';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { startFakeProcess, startJudgedFake } from './fake-process';
import { freshDatabase, type TestEngine } from '@/lib/server/db/db.testkit';
import { resolveModel } from '@/lib/server/providers';
import { executeRun } from '@/lib/server/runs/engine/execute-run';
import type { LlmGateway } from '@/lib/server/runs/calls/gateway';
import { requestRun } from '@/lib/server/runs/request-run';
import { storeGrading } from '@/lib/server/runs/grading/judge';
import { COPY_MIN_ROWS, GradingWriter } from '@/lib/server/db/commands/grading-writer';
import { fakeDeps, noDispatch, storeBlueprint } from '@/lib/server/runs/runs.testkit';
import { reportFigure, reportTarget } from './targets';

const PROMPTS = Number(process.env.BENCH_PIPELINE_PROMPTS ?? 250);
const MODELS = 8; // 250 × 8 = 2,000 model calls (and as many judge calls)
/** Fixed provider latency of the efficiency run (real providers answer in 0.5–20 s). */
const LATENCY_MS = 100;
const CONCURRENCY = 20;

function blueprint(): string {
  const prompts = Array.from({ length: PROMPTS }, (_, i) => `- id: p${i}\n  prompt: "Bench question ${i}: explain item ${i}."\n  should:\n    - "Explains item ${i} clearly"\n    - $contains: "Fake reply"`);
  return `title: Pipeline bench\n---\n${prompts.join('\n')}\n`;
}

interface Timed {
  seconds: number;
  calls: number;
  cpuMsPerCall: number;
  slots: { mean: number; max: number };
}

async function timedRun(engine: TestEngine, latencyMs: number): Promise<Timed> {
  const label = `${engine}, ${latencyMs} ms`;
  const t = await freshDatabase(engine);
  const fake = await startJudgedFake(latencyMs);
  try {
    const { blueprintId } = await storeBlueprint(t.db, 'pipeline-bench.yml', blueprint());
    const deps = await fakeDeps(t.db, fake.url, { concurrency: CONCURRENCY });
    const models = Array.from({ length: MODELS }, (_, i) => `openai:model-${i}`);
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', models, judges: ['openai:judge'] }, noDispatch, {
      judges: [],
      defaultCollection: 'CORE',
      judgeSamples: 3,
    });
    const gateway = deps.gateway as LlmGateway;
    gateway.resetSlotStats();
    const cpu = process.cpuUsage();
    const started = performance.now();
    const status = await executeRun(deps, runId);
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const slots = gateway.slotStats().openai ?? { mean: 0, max: 0 };
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    const calls = (await fake.admin.stats()).completed;
    const cpuMsPerCall = (used.user + used.system) / 1000 / calls;
    console.log(`[${label}] status ${status}: ${run.doneCalls} replies, ${run.doneVerdicts} verdicts, ${calls} provider calls (${run.providerCalls} counted by the run)`);
    console.log(`[${label}] ${seconds.toFixed(2)} s wall, ${(calls / seconds).toFixed(0)} calls/s, ${cpuMsPerCall.toFixed(2)} ms CPU per call, slots in flight mean ${slots.mean.toFixed(1)} / max ${slots.max} of ${CONCURRENCY}`);
    if (latencyMs > 0) {
      const ideal = (calls * latencyMs) / 1000 / CONCURRENCY;
      console.log(`[${label}] ideal ${ideal.toFixed(2)} s: efficiency (ideal ÷ measured) ${(ideal / seconds).toFixed(3)}`);
    }
    return { seconds, calls, cpuMsPerCall, slots };
  } finally {
    fake.stop();
    await t.close();
  }
}

/** The same number of calls through the provider's HTTP client alone: the floor under the pipeline's CPU. */
async function clientOnly(calls: number): Promise<number> {
  const fake = await startFakeProcess();
  try {
    const { client, model } = resolveModel('openai:model-0', { keys: {}, baseUrlOverride: fake.url });
    const limit = pLimit(CONCURRENCY);
    const send = (n: number) => Promise.all(Array.from({ length: n }, (_, i) => limit(() => client.chat({ model, messages: [{ role: 'user', content: `Bench question ${i}: explain item ${i}.` }], attempt: 0, timeoutMs: 10_000 }))));
    await send(200); // warm, as the pipeline's client is by its first calls
    const cpu = process.cpuUsage();
    await send(calls);
    const used = process.cpuUsage(cpu);
    return (used.user + used.system) / 1000 / calls;
  } finally {
    fake.stop();
  }
}

async function efficiency(): Promise<void> {
  const note = `${PROMPTS * MODELS} model + ${PROMPTS * MODELS} judge calls, concurrency ${CONCURRENCY}`;
  const server = await timedRun('postgres', LATENCY_MS);
  reportTarget({ name: 'pipeline efficiency at 100 ms (server)', value: (server.calls * LATENCY_MS) / 1000 / CONCURRENCY / server.seconds, unit: '× ideal', atLeast: 0.9, note: `${note}; ${server.seconds.toFixed(1)} s wall` });
  const saturated = await timedRun('postgres', 0);
  reportTarget({ name: 'pipeline calls/s at 0 ms (server)', value: saturated.calls / saturated.seconds, unit: 'calls/s', atLeast: 500, note: `${note}; ${saturated.seconds.toFixed(1)} s wall` });
  reportFigure({ name: 'provider slots in flight at 0 ms (server)', value: saturated.slots.mean, unit: `mean (max ${saturated.slots.max} of ${CONCURRENCY})` });
  reportTarget({ name: 'pipeline CPU per provider call (server)', value: saturated.cpuMsPerCall, unit: 'ms/call', atMost: 2, note: 'process.cpuUsage over the 0 ms run, all threads' });
  reportFigure({ name: 'provider HTTP client alone, CPU per call', value: await clientOnly(2000), unit: 'ms/call', note: 'the openai SDK against the same fake, no pipeline: the floor of the figure above' });

  const embedded = await timedRun('pglite', LATENCY_MS);
  reportFigure({ name: 'pipeline efficiency at 100 ms (PGlite)', value: (embedded.calls * LATENCY_MS) / 1000 / CONCURRENCY / embedded.seconds, unit: '× ideal', note: `${embedded.seconds.toFixed(1)} s wall` });
  const embeddedSaturated = await timedRun('pglite', 0);
  reportFigure({ name: 'pipeline calls/s at 0 ms (PGlite)', value: embeddedSaturated.calls / embeddedSaturated.seconds, unit: 'calls/s', note: `slots in flight mean ${embeddedSaturated.slots.mean.toFixed(1)}, max ${embeddedSaturated.slots.max}; ${embeddedSaturated.cpuMsPerCall.toFixed(2)} ms CPU per call` });
}

const REPLIES = 5000;
const ROUNDS = 3;
const POINTS = 10; // 50,000 verdicts

async function writeRate(): Promise<void> {
  const t = await freshDatabase('postgres');
  try {
    const { blueprintId } = await storeBlueprint(t.db, 'write-bench.yml', 'title: Write bench\n---\n- id: p\n  prompt: q\n  should: [a]\n');
    const version = await t.db.blueprint.findUniqueOrThrow({ where: { id: blueprintId }, select: { latestVersionId: true } });
    const run = await t.db.run.create({ data: { identityHash: 'bench', blueprintId, versionId: version.latestVersionId!, trigger: 'cli', models: [], judges: [], config: {} } });
    const client = new pg.Client({ connectionString: t.url });
    // dropped with the database if a round fails: the failure is the round's, not an unhandled event
    client.on('error', () => {});
    await client.connect();
    const replyIds = Array.from({ length: REPLIES }, () => randomUUID());
    const values = replyIds.map((id, i) => `('${id}', '${run.id}', 'p${i % 50}', 'm${i % 100}', ${i}, '[]'::jsonb, 'reply text ${i}')`);
    await client.query(`INSERT INTO replies (id, run_id, prompt_key, model_id, attempt, turns, content) VALUES ${values.join(',')}`);

    const rowsFor = (replyId: string, i: number) =>
      Array.from({ length: POINTS }, (_, p) => ({
        id: randomUUID(),
        runId: run.id,
        replyId,
        promptKey: `p${i % 50}`,
        modelId: `m${i % 100}`,
        pointIndex: p,
        status: (p % 3 ? 'pass' : 'fail') as 'pass' | 'fail',
        score: p % 3 ? 0.8 : 0.2,
        kind: 'text',
        pointText: `criterion number ${p} of the rubric`,
        weight: 1,
        gate: false,
        path: null,
        source: 'should',
        distribution: { CLASS_FULLY_PRESENT: 0.8, CLASS_ABSENT: 0.2 },
        method: 'logprobs',
        detail: 'mean of 2 judges',
        reasoning: 'judge-a: The reply covers it.\njudge-b: Mostly covered.',
        judges: [{ judge: 'a', value: 0.8 }, { judge: 'b', value: 0.8 }],
        spread: 0,
        disagreement: false,
      }));

    const attempt = { score: 0.6, errorCount: 0, gateFailed: false, noApplicable: false };
    const clear = () => client.query('DELETE FROM verdicts; DELETE FROM attempt_scores; DELETE FROM run_verdict_counts; UPDATE runs SET done_verdicts = 0, error_verdicts = 0');
    // The pipeline's write path, as many replies in flight as the runner has.
    const throughWriter = async (write: (id: string, i: number) => Promise<void>) => {
      await clear();
      const limit = pLimit(64); // the in-process runner's default cells in flight
      const started = performance.now();
      const cpu = process.cpuUsage();
      await Promise.all(replyIds.map((id, i) => limit(() => write(id, i))));
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      console.log(`  writer: ${seconds.toFixed(2)} s wall, ${((used.user + used.system) / 1000).toFixed(0)} ms CPU in this process`);
      return (await t.db.verdict.count({ where: { runId: run.id } })) / seconds;
    };
    const key = (id: string, i: number) => ({ id, promptKey: `p${i % 50}`, modelId: `m${i % 100}` });
    const viaPipeline = () => throughWriter((id, i) => storeGrading(t.db, run.id, key(id, i), rowsFor(id, i), attempt));
    const arraysWriter = new GradingWriter(t.db, { path: 'arrays' });
    const viaArrays = () => throughWriter((id, i) => arraysWriter.write({ runId: run.id, reply: key(id, i), rows: rowsFor(id, i), attempt }));

    // A plain COPY of the same rows into the same table (after clearing it).
    const columns = ['id', 'run_id', 'reply_id', 'prompt_key', 'model_id', 'point_index', 'status', 'score', 'kind', 'point_text', 'weight', 'gate', 'path', 'source', 'distribution', 'method', 'detail', 'reasoning', 'judges', 'spread', 'disagreement'];
    const esc = (v: unknown) => (v === null || v === undefined ? '\\N' : String(typeof v === 'object' ? JSON.stringify(v) : v).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n'));
    function* lines() {
      for (let i = 0; i < replyIds.length; i++) {
        for (const r of rowsFor(replyIds[i]!, i)) {
          yield `${[r.id, r.runId, r.replyId, r.promptKey, r.modelId, r.pointIndex, r.status, r.score, r.kind, r.pointText, r.weight, r.gate, r.path, r.source, r.distribution, r.method, r.detail, r.reasoning, r.judges, r.spread, r.disagreement].map(esc).join('\t')}\n`;
        }
      }
    }
    const viaCopy = async () => {
      await clear();
      const started = performance.now();
      const cpu = process.cpuUsage();
      await pipeline(Readable.from(lines()), client.query(copyFrom(`COPY verdicts (${columns.join(', ')}) FROM STDIN`)));
      const seconds = (performance.now() - started) / 1000;
      const used = process.cpuUsage(cpu);
      console.log(`  plain COPY: ${seconds.toFixed(2)} s wall, ${((used.user + used.system) / 1000).toFixed(0)} ms CPU in this process`);
      return Number((await client.query('SELECT count(*) FROM verdicts')).rows[0].count) / seconds;
    };

    // Interleaved, three times, best of each: the machine is shared (one plain COPY of the same
    // rows measured 1.5–2.1 s from one round to the next), and a ratio of two runs taken minutes
    // apart would measure the neighbours.
    const best = { pipeline: 0, arrays: 0, copy: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      best.copy = Math.max(best.copy, await viaCopy());
      best.pipeline = Math.max(best.pipeline, await viaPipeline());
      best.arrays = Math.max(best.arrays, await viaArrays());
    }
    await client.end();
    console.log(`verdicts written by the pipeline: ${best.pipeline.toFixed(0)} rows/s (group commit with attempt scores and counter rows; each reply committed before its step ends; up to 3 batches in flight, those of ≥ ${COPY_MIN_ROWS} rows through COPY)`);
    console.log(`the same through unnest arrays:   ${best.arrays.toFixed(0)} rows/s (the PGlite path)`);
    console.log(`plain COPY of the same rows:      ${best.copy.toFixed(0)} rows/s`);
    console.log(`verdict write rate ÷ COPY: ${(best.pipeline / best.copy).toFixed(3)}`);
    const note = `${REPLIES * POINTS} verdicts, 64 replies in flight, best of ${ROUNDS} interleaved`;
    reportTarget({ name: 'verdict writes vs plain COPY (server)', value: best.pipeline / best.copy, unit: '×', atLeast: 0.8, note });
    reportFigure({ name: 'verdict writes via unnest arrays vs COPY (server)', value: best.arrays / best.copy, unit: '×', note: 'the path PGlite takes' });
  } finally {
    await t.close();
  }
}

/** For profiling: the efficiency half alone (`node --cpu-prof --import tsx -e …`). */
export const efficiencyOnly = efficiency;
export const writeRateOnly = (): Promise<void> => writeRate();

export async function bench(): Promise<void> {
  await efficiency();
  await writeRate();
}
