/**
 * The page benchmark's runs, made by the pipeline (requestRun + executeRun, as `assay run`)
 * against the fake provider in its own process with no latency, so a 100,000-verdict run has
 * exactly the rows a real one has. Each prompt has one judged point and nine point functions
 * over code words; each model's reply carries its own set of code words (another set in the
 * second run, so the diff has something to show), and the judges answer from the reply: a
 * word is "fully present" when the reply has it. Nothing is drawn at random.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fakeLlmAdmin } from '@/testing/fakes/llm-server-admin';
import type { Db } from '@/lib/server/db/client';
import { executeRun } from '@/lib/server/runs/engine/execute-run';
import { requestRun } from '@/lib/server/runs/request-run';
import { fakeDeps, noDispatch, storeBlueprint } from '@/lib/server/runs/runs.testkit';

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];
const JUDGES = ['openai:bench-judge-a#standard', 'openai:bench-judge-b#standard'];

export interface BenchSeeded {
  blueprintId: string;
  /** Completed runs, oldest first. */
  runIds: string[];
  promptKeys: string[];
  models: string[];
  verdictsPerRun: number[];
}

/** Model ids of several providers' shapes, with ':' and '/' that URLs must survive. */
export function benchModels(n: number): string[] {
  const known = ['openrouter:openai/gpt-4o', 'anthropic:claude-3-5-sonnet-20241022', 'openrouter:meta-llama/llama-3.1-70b-instruct', 'openai:gpt-4o-mini'];
  return Array.from({ length: n }, (_v, i) => known[i] ?? `openrouter:vendor-${i}/model-${i}-instruct`);
}

function blueprintYaml(title: string, prompts: number, models: string[]): string {
  const lines = [`title: "${title}"`, 'tags: [bench]', `models: [${models.map((m) => JSON.stringify(m)).join(', ')}]`, '---'];
  for (let i = 0; i < prompts; i++) {
    const words = Array.from({ length: 10 }, (_v, k) => WORDS[(i + k) % WORDS.length]!);
    lines.push(`- id: item-${String(i).padStart(4, '0')}`, `  prompt: "Bench question ${i}: which code words apply to item ${i}?"`, '  should:', `    - "Mentions ${words[0]}"`);
    for (const w of words.slice(1)) lines.push(`    - $icontains_word: ${w}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Whether model m's reply carries word w in a round: a fixed hash, not a random draw. */
const carries = (model: string, word: string, round: number) => createHash('sha1').update(`${model}|${word}|${round}`).digest()[0]! < 160;

const wire = (id: string) => id.slice(id.indexOf(':') + 1).replace(/#.*$/, '');
const exactly = (s: string) => `/^${s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$/`;

function rules(models: string[], round: number) {
  const judged = JUDGES.flatMap((j) => [
    ...WORDS.map((w) => ({ model: exactly(wire(j)), lastUser: `/<TEXT>\\n[^<]*\\b${w}\\b[^<]*\\n<\\/TEXT>[\\s\\S]*<QUESTION>\\nMentions ${w}\\n/`, judge: { labels: { E: 0.8, D: 0.15, C: 0.05 }, reasoning: `The reply mentions ${w}.` } })),
    { model: exactly(wire(j)), judge: { labels: { A: 0.75, B: 0.2, C: 0.05 }, reasoning: 'The reply does not mention the word.' } },
  ]);
  const replies = models.map((m) => ({ model: exactly(wire(m)), reply: `Bench reply from ${wire(m)}: ${WORDS.filter((w) => carries(m, w, round)).join(', ') || 'none of them'}.` }));
  return [...judged, ...replies];
}

/** The fake provider in its own process (a provider is on its own machine), on a free port. */
async function startFake(): Promise<{ url: string; admin: ReturnType<typeof fakeLlmAdmin>; stop: () => void }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'testing/fakes/llm-server-main.ts'], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const origin = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /listening on (http:\/\/\S+)/.exec(d.toString());
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`fake LLM exited with ${code}`)));
  });
  return { url: `${origin}/v1`, admin: fakeLlmAdmin(origin), stop: () => child.kill('SIGTERM') };
}

const promptKeys = (n: number) => Array.from({ length: n }, (_v, i) => `item-${String(i).padStart(4, '0')}`);

/**
 * The blueprint `bench/<slug>.yml` as an earlier bench left it in a kept database (BENCH_KEEP_DB),
 * when it has its `runs` completed runs of this shape; null otherwise. A 1,000,000-verdict run
 * takes many minutes to make, and a page changed since is measured on the same rows.
 */
export async function findSeeded(db: Db, opts: { slug: string; prompts: number; models: number; runs: number }): Promise<BenchSeeded | null> {
  const blueprint = await db.blueprint.findFirst({ where: { path: `bench/${opts.slug}.yml` }, select: { id: true } });
  if (!blueprint) return null;
  const runs = await db.run.findMany({ where: { blueprintId: blueprint.id, status: 'completed' }, orderBy: { createdAt: 'asc' }, select: { id: true } });
  if (runs.length < opts.runs) return null;
  const runIds = runs.slice(-opts.runs).map((r) => r.id);
  const verdictsPerRun = await Promise.all(runIds.map((runId) => db.verdict.count({ where: { runId } })));
  if (verdictsPerRun.some((v) => v !== opts.prompts * opts.models * 10)) return null;
  return { blueprintId: blueprint.id, runIds, promptKeys: promptKeys(opts.prompts), models: benchModels(opts.models), verdictsPerRun };
}

/**
 * Stores the blueprint `bench/<slug>.yml` and runs it `runs` times through the pipeline, one week
 * apart. In a kept database a round already completed is kept, and one that did not finish (the
 * bench stopped, or a defect stopped the run) is resumed, as `assay run --resume` would.
 */
export async function seedBenchBlueprint(db: Db, opts: { slug: string; title: string; prompts: number; models: number; runs: number }): Promise<BenchSeeded> {
  const models = benchModels(opts.models);
  const path = `bench/${opts.slug}.yml`;
  const blueprintId = (await db.blueprint.findFirst({ where: { path }, select: { id: true } }))?.id ?? (await storeBlueprint(db, path, blueprintYaml(opts.title, opts.prompts, models))).blueprintId;
  const earlier = await db.run.findMany({ where: { blueprintId }, orderBy: { createdAt: 'asc' }, select: { id: true, status: true } });
  const fake = await startFake();
  const runIds: string[] = [];
  const verdictsPerRun: number[] = [];
  try {
    const deps = await fakeDeps(db, fake.url, { concurrency: 32, sandbox: false });
    for (let round = 0; round < opts.runs; round++) {
      const made = earlier[round];
      let runId = made?.id;
      if (runId === undefined || made?.status !== 'completed') {
        await fake.admin.setRules(rules(models, round));
        runId ??= (await requestRun(db, { blueprintId, trigger: 'schedule', judges: JUDGES, bypassCache: true }, noDispatch, { judges: JUDGES, defaultCollection: 'CORE', judgeSamples: 3 })).runId;
        const started = Date.now();
        const status = await executeRun(deps, runId, { inFlight: 128 });
        if (status !== 'completed') throw new Error(`bench run ${runId} ended ${status}`);
        // dated a week apart (run timestamps only): the blueprint's history and trend
        const at = new Date(started - (opts.runs - round) * 7 * 86_400_000);
        await db.run.update({ where: { id: runId }, data: { createdAt: at, startedAt: at, finishedAt: new Date(at.getTime() + Date.now() - started) } });
      }
      runIds.push(runId);
      verdictsPerRun.push(await db.verdict.count({ where: { runId } }));
    }
  } finally {
    fake.stop();
  }
  return { blueprintId, runIds, promptKeys: promptKeys(opts.prompts), models, verdictsPerRun };
}
