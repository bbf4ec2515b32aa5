/**
 * The run pipeline's figures (issue 4):
 *  1. Efficiency: a run of 2,000 model calls and their 2,000 judge calls against the fake LLM
 *     with a fixed latency, through the real runner, gateway, cache and database, compared
 *     with the ideal (calls × latency ÷ concurrency). Target ≥ 0.9.
 *  2. Verdict write rate into PostgreSQL through the pipeline's own write path (storeGrading:
 *     group commit of each reply's verdicts, attempt score and counters, 64 in flight as
 *     the runner does), as a ratio to a plain COPY of the same rows.
 * Runs on the PostgreSQL server at 127.0.0.1:5432 (ASSAY_TEST_PG_URL), in a fresh database.
 */
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import pLimit from 'p-limit';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { startFakeProcess } from './fake-process';
import { freshDatabase } from '@/lib/server/db/db.testkit';
import { executeRun } from '@/lib/server/runs/execute-run';
import { requestRun } from '@/lib/server/runs/request-run';
import { storeGrading } from '@/lib/server/runs/judge';
import { fakeDeps, noDispatch, storeBlueprint } from '@/lib/server/runs/runs.testkit';

const PROMPTS = 250;
const MODELS = 8; // 250 × 8 = 2,000 model calls
/** Fixed provider latency of the efficiency run (real providers answer in 0.5–20 s). */
const LATENCY_MS = 250;
const CONCURRENCY = 32;

function blueprint(): string {
  const prompts = Array.from({ length: PROMPTS }, (_, i) => `- id: p${i}\n  prompt: "Bench question ${i}: explain item ${i}."\n  should:\n    - "Explains item ${i} clearly"\n    - $contains: "Fake reply"`);
  return `title: Pipeline bench\n---\n${prompts.join('\n')}\n`;
}

/** The fake provider in its own process, answering the judges. */
async function startJudgedFake(latencyMs: number): Promise<Awaited<ReturnType<typeof startFakeProcess>>> {
  const fake = await startFakeProcess({ latencyMs });
  await fake.admin.setRules([{ model: 'judge', judge: { labels: { D: 0.5, E: 0.5 } } }]);
  return fake;
}

async function timedRun(latencyMs: number, label: string): Promise<void> {
  const t = await freshDatabase('postgres');
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
    const started = performance.now();
    const status = await executeRun(deps, runId, { inFlight: CONCURRENCY * 4 });
    const seconds = (performance.now() - started) / 1000;
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    const calls = (await fake.admin.stats()).completed;
    console.log(`[${label}] status ${status}: ${run.doneCalls} replies, ${run.doneVerdicts} verdicts, ${calls} provider calls (${run.providerCalls} counted by the run)`);
    if (latencyMs > 0) {
      const ideal = (calls * latencyMs) / 1000 / CONCURRENCY;
      console.log(`[${label}] latency ${latencyMs} ms, concurrency ${CONCURRENCY}: ideal ${ideal.toFixed(2)} s, measured ${seconds.toFixed(2)} s`);
      console.log(`[${label}] pipeline efficiency (ideal ÷ measured): ${(ideal / seconds).toFixed(3)}   [target ≥ 0.9]`);
    } else {
      console.log(`[${label}] ${seconds.toFixed(2)} s: ${(calls / seconds).toFixed(0)} calls/s, ${((seconds * 1000) / calls).toFixed(2)} ms of pipeline per provider call (the ceiling of one worker process)`);
    }
  } finally {
    fake.stop();
    await t.close();
  }
}

async function efficiency(): Promise<void> {
  await timedRun(LATENCY_MS, 'efficiency');
  await timedRun(0, 'saturation');
}

const REPLIES = 5000;
const POINTS = 10; // 50,000 verdicts

async function writeRate(): Promise<void> {
  const t = await freshDatabase('postgres');
  try {
    const { blueprintId } = await storeBlueprint(t.db, 'write-bench.yml', 'title: Write bench\n---\n- id: p\n  prompt: q\n  should: [a]\n');
    const version = await t.db.blueprint.findUniqueOrThrow({ where: { id: blueprintId }, select: { latestVersionId: true } });
    const run = await t.db.run.create({ data: { identityHash: 'bench', blueprintId, versionId: version.latestVersionId!, trigger: 'cli', models: [], judges: [], config: {} } });
    const client = new pg.Client({ connectionString: t.url });
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
        alpha: null,
        disagreement: false,
      }));

    // 1. The pipeline's write path, as many replies in flight as the runner has.
    const limit = pLimit(64); // the in-process runner's default cells in flight
    let started = performance.now();
    await Promise.all(
      replyIds.map((id, i) =>
        limit(() => storeGrading(t.db, run.id, { id, promptKey: `p${i % 50}`, modelId: `m${i % 100}` }, rowsFor(id, i), { score: 0.6, errorCount: 0, gateFailed: false, noApplicable: false })),
      ),
    );
    const pipelineSeconds = (performance.now() - started) / 1000;
    const stored = await t.db.verdict.count({ where: { runId: run.id } });

    // 2. A plain COPY of the same rows into the same table (after clearing it).
    await client.query('DELETE FROM verdicts');
    const columns = ['id', 'run_id', 'reply_id', 'prompt_key', 'model_id', 'point_index', 'status', 'score', 'kind', 'point_text', 'weight', 'gate', 'path', 'source', 'distribution', 'method', 'detail', 'reasoning', 'judges', 'spread', 'alpha', 'disagreement'];
    const esc = (v: unknown) => (v === null || v === undefined ? '\\N' : String(typeof v === 'object' ? JSON.stringify(v) : v).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n'));
    function* lines() {
      for (let i = 0; i < replyIds.length; i++) {
        for (const r of rowsFor(replyIds[i]!, i)) {
          yield `${[r.id, r.runId, r.replyId, r.promptKey, r.modelId, r.pointIndex, r.status, r.score, r.kind, r.pointText, r.weight, r.gate, r.path, r.source, r.distribution, r.method, r.detail, r.reasoning, r.judges, r.spread, r.alpha, r.disagreement].map(esc).join('\t')}\n`;
        }
      }
    }
    started = performance.now();
    await pipeline(Readable.from(lines()), client.query(copyFrom(`COPY verdicts (${columns.join(', ')}) FROM STDIN`)));
    const copySeconds = (performance.now() - started) / 1000;
    const copied = Number((await client.query('SELECT count(*) FROM verdicts')).rows[0].count);
    await client.end();

    const rate = stored / pipelineSeconds;
    const copyRate = copied / copySeconds;
    console.log(`verdicts written by the pipeline: ${stored} in ${pipelineSeconds.toFixed(2)} s = ${rate.toFixed(0)} rows/s (group commit with attempt scores and counters; each reply committed before its step ends)`);
    console.log(`plain COPY of the same rows:      ${copied} in ${copySeconds.toFixed(2)} s = ${copyRate.toFixed(0)} rows/s`);
    console.log(`verdict write rate ÷ COPY: ${(rate / copyRate).toFixed(3)}`);
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
