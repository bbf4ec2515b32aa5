/**
 * The demo data set (ASSAY_SEED_DEMO=1, the e2e server, the reader query tests), made by the
 * real pipeline: the demo blueprints (demo/*.yml) are stored as a source would store them,
 * then run with `requestRun` + `executeRun` (what `assay run` does) against the fake provider,
 * whose rules (demo-models.ts) give each model its character. Every reply, verdict, judge
 * record and summary is the pipeline's own; the seed only names the runs (fixed ids, so the
 * e2e specs can find them) and dates them a week apart (run timestamps only, never evidence).
 *
 * The fake is handed in (DemoProvider): lib/server does not import the test double; the
 * caller (scripts/launch.ts, a test) starts it on a free port.
 *
 * The demo blueprints live here, not in blueprints/, so the local sync does not publish them
 * as the user's own: they appear only when the demo is asked for, under their own source.
 */
import { readFile } from 'node:fs/promises';
import { blueprintIdFromPath, createQuickJsSandbox, parseBlueprint, type Blueprint, type QuickJsSandbox } from '@/lib/core';
import type { Db } from '../client';
import { storeBlueprintVersion } from '../commands/store-blueprint-version';
import type { RunDeps } from '../../runs/engine/deps';
import { executeRun } from '../../runs/engine/execute-run';
import { LlmGateway } from '../../runs/calls/gateway';
import { requestRun, type RunDefaults } from '../../runs/request-run';
import type { RunTrigger } from '../../runs/contracts';
import { DEMO_JUDGES, DEMO_MODELS, demoRules, LIVE_ROUND, rateLimitedModels, type DemoRule } from './demo-models';

/** The fake LLM server, started by the caller: its OpenAI-style base URL and a way to replace its rules. */
export interface DemoProvider {
  url: string;
  setRules(rules: DemoRule[]): void | Promise<void>;
}

export interface SeededBlueprint {
  blueprintId: string;
  versionId: string;
  /** Completed runs, oldest first. */
  runIds: string[];
  models: string[];
  promptKeys: string[];
  sealedKeys: string[];
}

export interface SeededDemo {
  everyday: SeededBlueprint;
  support: SeededBlueprint;
  coding: SeededBlueprint;
  tools: SeededBlueprint;
  /** Every prompt four attempts, with a pass_threshold: pass@k and clustered intervals. */
  repeated: SeededBlueprint;
}

const DAY = 86_400_000;
const SOURCE_KEY = 'local:demo';
const FILES = { everyday: 'everyday-answers.yml', support: 'customer-support.yml', coding: 'coding-help.yml', tools: 'tool-calls.yml', repeated: 'repeated-answers.yml' } as const;
type Slug = keyof typeof FILES;

export const DEMO_LIVE_RUN = 'everyday-answers-run-live';
export const demoBlueprintId = (slug: Slug) => blueprintIdFromPath(`demo/${FILES[slug]}`);

const DEFAULTS: RunDefaults = { judges: DEMO_JUDGES, defaultCollection: 'CORE', judgeSamples: 3 };

/**
 * The runs, in the order they happen. `round` picks the models' behaviour (they drift);
 * `daysAgo` dates the run. Runs of one round run concurrently.
 */
const PLAN: { slug: Slug; round: number; daysAgo: number; trigger: RunTrigger }[] = [
  { slug: 'everyday', round: 0, daysAgo: 15, trigger: 'manual' },
  { slug: 'everyday', round: 1, daysAgo: 8, trigger: 'schedule' },
  { slug: 'coding', round: 1, daysAgo: 8, trigger: 'manual' },
  { slug: 'everyday', round: 2, daysAgo: 1, trigger: 'schedule' },
  { slug: 'coding', round: 2, daysAgo: 1, trigger: 'schedule' },
  { slug: 'support', round: 2, daysAgo: 1, trigger: 'manual' },
  { slug: 'tools', round: 2, daysAgo: 1, trigger: 'manual' },
  { slug: 'repeated', round: 2, daysAgo: 1, trigger: 'manual' },
];

/** A timer that does not keep the process alive: the live run's hour-long wait must not block an exit. */
const unrefSleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

async function demoDeps(db: Db, provider: DemoProvider, sandbox: QuickJsSandbox): Promise<RunDeps> {
  return {
    db,
    gateway: new LlmGateway({
      db,
      providers: { keys: {}, baseUrlOverride: provider.url },
      concurrency: 16,
      // Retries as in production, but fast; a `retry-after` of an hour is waited for (the live run).
      retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 2 * 3_600_000, sleep: unrefSleep },
      timeoutMs: 30_000,
    }),
    sandbox,
    external: null,
    fixtures: null,
  };
}

/** The demo blueprint files, parsed (a file that does not validate is a defect of the demo). */
async function readDemoBlueprints(): Promise<Record<Slug, { path: string; rawText: string; parsed: Extract<ReturnType<typeof parseBlueprint>, { ok: true }> }>> {
  const out = {} as Awaited<ReturnType<typeof readDemoBlueprints>>;
  for (const slug of Object.keys(FILES) as Slug[]) {
    const path = `demo/${FILES[slug]}`;
    const rawText = await readFile(new URL(`./${path}`, import.meta.url), 'utf8');
    const parsed = parseBlueprint(rawText, { file: path });
    if (!parsed.ok) throw new Error(`demo blueprint ${path} does not validate: ${parsed.errors.map((e) => `${e.line}:${e.col} ${e.message}`).join('; ')}`);
    out[slug] = { path, rawText, parsed };
  }
  return out;
}

async function storeDemoBlueprints(db: Db): Promise<Record<Slug, { blueprint: Blueprint; versionId: string }>> {
  const source = await db.blueprintSource.upsert({
    where: { key: SOURCE_KEY },
    create: { key: SOURCE_KEY, kind: 'local', localPath: 'lib/server/db/seed' },
    update: {},
  });
  const files = await readDemoBlueprints();
  const out = {} as Record<Slug, { blueprint: Blueprint; versionId: string }>;
  for (const slug of Object.keys(FILES) as Slug[]) {
    const { path, rawText, parsed } = files[slug];
    const id = demoBlueprintId(slug);
    // A fresh demo each time: the old one's runs go with it (cascade).
    await db.blueprint.deleteMany({ where: { id } });
    const stored = await storeBlueprintVersion(db, source.id, id, { path, rawText, sourceCommit: null, blobSha: null }, parsed);
    out[slug] = { blueprint: parsed.blueprint, versionId: stored.versionId };
  }
  return out;
}

/** `requestRun` + `executeRun`, as `assay run` does, under a fixed run id. */
async function pipelineRun(deps: RunDeps, blueprintId: string, runId: string, trigger: RunTrigger): Promise<void> {
  const { runId: made } = await requestRun(deps.db, { blueprintId, trigger, judges: DEMO_JUDGES, bypassCache: true }, { dispatch: async () => {} }, DEFAULTS);
  // Named before it starts: nothing refers to the run yet.
  await deps.db.run.update({ where: { id: made }, data: { id: runId } });
}

export async function seedDemo(db: Db, provider: DemoProvider, opts: { now?: Date } = {}): Promise<SeededDemo> {
  const now = opts.now ?? new Date();
  const stored = await storeDemoBlueprints(db);
  const blueprints = Object.values(stored).map((s) => s.blueprint);
  for (const m of DEMO_MODELS) {
    const displayName = m.id.slice(m.id.indexOf(':') + 1).split('/').at(-1)!;
    await db.model.upsert({ where: { id: m.id }, create: { id: m.id, provider: m.id.split(':')[0]!, displayName }, update: {} });
  }
  const sandbox = await createQuickJsSandbox();
  const deps = await demoDeps(db, provider, sandbox);
  const runIds: Record<Slug, string[]> = { everyday: [], support: [], coding: [], tools: [], repeated: [] };
  const runPlanned = async (p: (typeof PLAN)[number], order: number) => {
    const runId = `${FILES[p.slug].replace(/\.yml$/, '')}-run-${runIds[p.slug].length + 1}`;
    runIds[p.slug].push(runId);
    await pipelineRun(deps, demoBlueprintId(p.slug), runId, p.trigger);
    const started = Date.now();
    const status = await executeRun(deps, runId);
    if (status !== 'completed') throw new Error(`demo run ${runId} ended ${status}`);
    // Dated into the past (run timestamps only, never evidence): one run a week, ten minutes apart within a day.
    const at = new Date(now.getTime() - p.daysAgo * DAY + 3_600_000 + order * 600_000);
    const startedAt = new Date(at.getTime() + 2_000);
    await db.run.update({ where: { id: runId }, data: { createdAt: at, startedAt, finishedAt: new Date(startedAt.getTime() + (Date.now() - started)) } });
  };
  try {
    for (const round of [...new Set(PLAN.map((p) => p.round))]) {
      await provider.setRules(demoRules(round, blueprints));
      await Promise.all(PLAN.map((p, order) => (p.round === round ? runPlanned(p, order) : null)));
    }
  } finally {
    sandbox.dispose();
  }
  const seeded = (slug: Slug): SeededBlueprint => {
    const bp = stored[slug].blueprint;
    return {
      blueprintId: demoBlueprintId(slug),
      versionId: stored[slug].versionId,
      runIds: runIds[slug],
      models: bp.models.flatMap((m) => (m.kind === 'id' ? [m.id] : [])),
      promptKeys: bp.prompts.filter((p) => p.split !== 'test').map((p) => p.id),
      sealedKeys: bp.prompts.filter((p) => p.split === 'test').map((p) => p.id),
    };
  };
  return { everyday: seeded('everyday'), support: seeded('support'), coding: seeded('coding'), tools: seeded('tools'), repeated: seeded('repeated') };
}

/**
 * Starts the run readers see in progress: the everyday blueprint again, in a round where two
 * models' provider rate-limits with `retry-after: 3600`. The other models' replies are
 * generated and judged; those two wait, so the run stays `running` in this process for the
 * hour. Resolves once everything that can finish has (the pipeline keeps the rest pending).
 *
 * Call it after the app's server has started: a server resumes the runs it finds running.
 */
export async function startDemoLiveRun(db: Db, provider: DemoProvider): Promise<{ runId: string; waiting: number }> {
  const blueprintId = demoBlueprintId('everyday');
  const files = await readDemoBlueprints();
  await provider.setRules(demoRules(LIVE_ROUND, Object.values(files).map((f) => f.parsed.blueprint)));
  await db.run.deleteMany({ where: { id: DEMO_LIVE_RUN } });
  const sandbox = await createQuickJsSandbox();
  const deps = await demoDeps(db, provider, sandbox);
  await pipelineRun(deps, blueprintId, DEMO_LIVE_RUN, 'manual');
  const run = await db.run.findUniqueOrThrow({ where: { id: DEMO_LIVE_RUN }, select: { totalCalls: true } });
  // The calls that can finish: every cell of the models that are not rate-limited.
  const finishing = run.totalCalls - (run.totalCalls / DEMO_MODELS.length) * rateLimitedModels(LIVE_ROUND).length;
  // Not awaited: the runner keeps waiting on the rate-limited calls (its sandbox with it). After
  // two hours its retries are spent and those replies are stored as the provider's errors.
  void executeRun(deps, DEMO_LIVE_RUN).catch((e: unknown) => console.error(`assay: demo live run stopped: ${(e as Error).message}`));
  const until = Date.now() + 120_000;
  for (;;) {
    const [r, graded] = await Promise.all([
      db.run.findUniqueOrThrow({ where: { id: DEMO_LIVE_RUN }, select: { doneCalls: true, status: true } }),
      db.attemptScore.count({ where: { runId: DEMO_LIVE_RUN } }),
    ]);
    if (r.status !== 'running' && r.status !== 'queued') throw new Error(`the demo live run is ${r.status}, not running`);
    if (r.doneCalls >= finishing && graded >= finishing) return { runId: DEMO_LIVE_RUN, waiting: run.totalCalls - r.doneCalls };
    if (Date.now() > until) throw new Error(`the demo live run did not reach ${finishing} replies in 120 s (${r.doneCalls} done)`);
    await new Promise((done) => setTimeout(done, 50));
  }
}
