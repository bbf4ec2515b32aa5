/**
 * Seeds a realistic blueprint (version, prompts, one or more sealed `test` prompts) and its
 * runs: every prompt × model reply in Markdown, every point's verdict with judge panels,
 * distributions and reasoning, a few errors of each kind, attempt scores and summaries.
 * Used by the e2e server (ASSAY_SEED_DEMO=1), the page benchmark and the query tests.
 * Rows are written with multi-row INSERTs, so a 100,000-verdict run takes seconds.
 */
import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import type { Db } from '../client';
import { bulkInsert, type BulkColumn } from './bulk-insert';
import {
  displayName,
  GENERIC_POINTS,
  HOSTILE_REPLY,
  JUDGES,
  judgeReasoning,
  replyText,
  SEALED_TEMPLATE,
  TEMPLATES,
  type PromptTemplate,
  type SeedPoint,
} from './content';
import { clamp01, seededRng, type Rng } from './random';
import { summariseRun } from '../../runs/summarise';

export interface SeedBlueprintOptions {
  /** The blueprint is stored as `demo__<slug>` (path `demo/<slug>.yml`). */
  slug: string;
  title: string;
  description?: string;
  tags?: string[];
  /** Prompts in the blueprint, sealed ones included. */
  prompts: number;
  models: string[];
  /** Points per prompt. */
  points: number;
  /** Completed runs, one week apart, the last one yesterday. */
  completedRuns: number;
  /** Also add a run that is still working (for the live progress view). */
  running?: boolean;
  /** Sealed `test` prompts among `prompts` (default 1). */
  sealed?: number;
  /** Put a reply that tries to run script in the latest run (markdown table prompt, third model). */
  hostileReply?: boolean;
  seed?: number;
  now?: Date;
}

export interface SeededBlueprint {
  blueprintId: string;
  versionId: string;
  /** Completed runs, oldest first. */
  runIds: string[];
  runningRunId: string | null;
  promptKeys: string[];
  sealedKeys: string[];
  models: string[];
  verdictsPerRun: number[];
  hostile: { runId: string; promptKey: string; modelId: string } | null;
}

interface PromptSpec {
  key: string;
  template: PromptTemplate;
  sealed: boolean;
  points: SeedPoint[];
  weight: number;
  difficulty: number;
}

const DAY = 86_400_000;
const SOURCE_KEY = 'seed:demo';

function sha1(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

function promptSpecs(opts: SeedBlueprintOptions, rng: Rng): PromptSpec[] {
  const sealedCount = Math.min(opts.sealed ?? 1, opts.prompts);
  // sealed prompts spread through the list (the first one third in), never first
  const sealedAt = new Set(Array.from({ length: sealedCount }, (_v, j) => Math.min(opts.prompts - 1, 2 + Math.floor((j * opts.prompts) / sealedCount))));
  const specs: PromptSpec[] = [];
  let sealedSeen = 0;
  let visibleSeen = 0;
  for (let i = 0; i < opts.prompts; i++) {
    const sealed = sealedAt.has(i);
    const template = sealed ? SEALED_TEMPLATE : (TEMPLATES[visibleSeen % TEMPLATES.length] as PromptTemplate);
    const round = Math.floor(visibleSeen / TEMPLATES.length);
    const key = sealed ? `${SEALED_TEMPLATE.key}-${++sealedSeen}` : round === 0 ? template.key : `${template.key}-${round + 1}`;
    if (!sealed) visibleSeen++;
    const points = [...template.points];
    for (let g = 0; points.length < opts.points; g++) points.push(GENERIC_POINTS[g % GENERIC_POINTS.length] as SeedPoint);
    specs.push({
      key,
      template,
      sealed,
      points: points.slice(0, Math.max(1, opts.points)),
      weight: rng.next() < 0.15 ? 2 : 1,
      difficulty: rng.normal(0.12),
    });
  }
  return specs;
}

function corePoint(p: SeedPoint) {
  // the normalised point shape of lib/core's PointSchema, as the parser would store it
  const common = { text: p.text, weight: p.weight ?? 1, citation: null, path: null, source: 'should', gate: p.gate ?? false, loc: null };
  return p.kind === 'function' ? { kind: 'function', ...common, fn: p.fn, args: p.args ?? null } : { kind: 'text', ...common };
}

function yamlPoint(p: SeedPoint): unknown {
  if (p.kind === 'function') return { [`$${p.fn}`]: p.args ?? null };
  if ((p.weight ?? 1) === 1 && !p.gate) return p.text;
  return { point: p.text, ...(p.weight && p.weight !== 1 ? { weight: p.weight } : {}), ...(p.gate ? { gate: true } : {}) };
}

function blueprintYaml(opts: SeedBlueprintOptions, specs: PromptSpec[]): string {
  const doc = {
    title: opts.title,
    description: opts.description ?? null,
    author: { name: 'Assay demo', url: 'https://example.org/assay' },
    tags: opts.tags ?? [],
    models: opts.models,
    prompts: specs.map((s) => ({
      id: s.key,
      ...(s.template.messages.length === 1 ? { prompt: s.template.messages[0]?.content } : { messages: s.template.messages }),
      ...(s.template.ideal ? { ideal: s.template.ideal } : {}),
      ...(s.weight !== 1 ? { weight: s.weight } : {}),
      ...(s.sealed ? { split: 'test' } : {}),
      should: s.points.map(yamlPoint),
    })),
  };
  return stringify(doc, { lineWidth: 100 });
}

/** The five-class judge scale distribution centred on `t` (a judge fairly sure of one class). */
function classDistribution(t: number): number[] {
  const raw = [0, 1, 2, 3, 4].map((i) => Math.exp(-((i / 4 - t) ** 2) / (2 * 0.15 ** 2)));
  const sum = raw.reduce((a, b) => a + b, 0);
  return raw.map((r) => Math.round((r / sum) * 1000) / 1000);
}
const CLASSES = ['CLASS_ABSENT', 'CLASS_SLIGHTLY_PRESENT', 'CLASS_PARTIALLY_PRESENT', 'CLASS_MAJORLY_PRESENT', 'CLASS_FULLY_PRESENT'];
const asLabels = (probs: number[]) => Object.fromEntries(CLASSES.map((c, i) => [c, probs[i] ?? 0]));
const expected = (probs: number[]) => probs.reduce((s, p, i) => s + (p * i) / 4, 0) / (probs.reduce((a, b) => a + b, 0) || 1);

const REPLY_COLUMNS: BulkColumn[] = [
  { name: 'id', type: 'text' },
  { name: 'run_id', type: 'text' },
  { name: 'prompt_key', type: 'text' },
  { name: 'model_id', type: 'text' },
  { name: 'temperature', type: 'double precision' },
  { name: 'turns', type: 'jsonb' },
  { name: 'content', type: 'text' },
  { name: 'finish_reason', type: 'text' },
  { name: 'prompt_tokens', type: 'int' },
  { name: 'completion_tokens', type: 'int' },
  { name: 'latency_ms', type: 'int' },
  { name: 'cost_usd', type: 'double precision' },
  { name: 'error', type: 'text' },
  { name: 'error_kind', type: 'text' },
  { name: 'created_at', type: 'timestamp(3)' },
];
const VERDICT_COLUMNS: BulkColumn[] = [
  { name: 'id', type: 'text' },
  { name: 'run_id', type: 'text' },
  { name: 'reply_id', type: 'text' },
  { name: 'prompt_key', type: 'text' },
  { name: 'model_id', type: 'text' },
  { name: 'point_index', type: 'int' },
  { name: 'status', type: 'text', cast: '::verdict_status' },
  { name: 'score', type: 'double precision' },
  { name: 'kind', type: 'text' },
  { name: 'point_text', type: 'text' },
  { name: 'fn', type: 'text' },
  { name: 'args', type: 'jsonb' },
  { name: 'weight', type: 'double precision' },
  { name: 'gate', type: 'boolean' },
  { name: 'distribution', type: 'jsonb' },
  { name: 'method', type: 'text' },
  { name: 'reasoning', type: 'text' },
  { name: 'judges', type: 'jsonb' },
  { name: 'spread', type: 'double precision' },
  { name: 'alpha', type: 'double precision' },
  { name: 'disagreement', type: 'boolean' },
  { name: 'created_at', type: 'timestamp(3)' },
];
const ATTEMPT_COLUMNS: BulkColumn[] = [
  { name: 'id', type: 'text' },
  { name: 'run_id', type: 'text' },
  { name: 'reply_id', type: 'text' },
  { name: 'prompt_key', type: 'text' },
  { name: 'model_id', type: 'text' },
  { name: 'score', type: 'double precision' },
  { name: 'error_count', type: 'int' },
  { name: 'gate_failed', type: 'boolean' },
  { name: 'no_applicable', type: 'boolean' },
];

/** Buffers rows and writes them in dependency order (replies before verdicts) every few thousand verdicts. */
class RunWriter {
  replies: unknown[][] = [];
  verdicts: unknown[][] = [];
  attempts: unknown[][] = [];
  verdictCount = 0;
  constructor(private db: Db) {}
  async maybeFlush(force = false) {
    if (!force && this.verdicts.length < 6000) return;
    await bulkInsert(this.db, 'replies', REPLY_COLUMNS, this.replies, 1000);
    await bulkInsert(this.db, 'verdicts', VERDICT_COLUMNS, this.verdicts, 2000);
    await bulkInsert(this.db, 'attempt_scores', ATTEMPT_COLUMNS, this.attempts, 4000);
    this.verdictCount += this.verdicts.length;
    this.replies = [];
    this.verdicts = [];
    this.attempts = [];
  }
}

interface RunContext {
  db: Db;
  runId: string;
  createdAt: Date;
  specs: PromptSpec[];
  models: string[];
  skills: number[];
  rng: Rng;
  hostile: { promptKey: string; modelId: string } | null;
}

async function seedRunRows(ctx: RunContext): Promise<{ verdicts: number; errorVerdicts: number; errorReplies: number; cost: number }> {
  const { rng, runId } = ctx;
  const w = new RunWriter(ctx.db);
  const at = ctx.createdAt.toISOString();
  let errorVerdicts = 0;
  let errorReplies = 0;
  let cost = 0;
  for (const spec of ctx.specs) {
    const pointOffsets = spec.points.map(() => rng.normal(0.12));
    for (const [m, modelId] of ctx.models.entries()) {
      const replyId = `${runId}~${spec.key}~${m}`;
      const isHostile = ctx.hostile?.promptKey === spec.key && ctx.hostile.modelId === modelId;
      const quality = clamp01((ctx.skills[m] as number) - spec.difficulty + rng.normal(0.1));
      const failed = !isHostile && rng.next() < 0.012;
      const content = failed ? '' : isHostile ? HOSTILE_REPLY : replyText(spec.template, quality, rng);
      const promptTokens = 40 + rng.int(0, 60);
      const completionTokens = failed ? 0 : Math.round(content.length / 4);
      const replyCost = failed ? 0 : (promptTokens * 0.15 + completionTokens * 0.6) / 1e6;
      cost += replyCost;
      const turns = failed ? spec.template.messages : [...spec.template.messages, { role: 'assistant', content }];
      w.replies.push([
        replyId, runId, spec.key, modelId, 0, JSON.stringify(turns), content, failed ? null : 'stop', promptTokens,
        completionTokens, failed ? 30_000 : 400 + rng.int(0, 4000), replyCost,
        failed ? 'The provider returned HTTP 503 (overloaded) on all 3 attempts' : null, failed ? 'server_error' : null, at,
      ]);
      if (failed) {
        errorReplies++;
        // an unanswered prompt has no verdicts; its attempt counts one error and has no score (never a 0)
        w.attempts.push([`${replyId}~a`, runId, replyId, spec.key, modelId, null, 1, false, false]);
        continue;
      }
      let total = 0;
      let weights = 0;
      let errors = 0;
      let gateFailed = false;
      for (const [k, point] of spec.points.entries()) {
        const weight = point.weight ?? 1;
        const base = [`${replyId}~${k}`, runId, replyId, spec.key, modelId, k];
        const t = clamp01(quality + (pointOffsets[k] as number) + rng.normal(0.12));
        let row: unknown[];
        let score: number | null = null;
        if (point.kind === 'function') {
          score = rng.next() < t ? 1 : 0;
          const detail = score === 1 ? `${point.fn} held for the reply` : `${point.fn} did not hold: no match in ${content.length} characters`;
          row = [...base, score === 1 ? 'pass' : 'fail', score, 'function', point.text, point.fn, JSON.stringify(point.args ?? null), weight, point.gate ?? false, null, 'function', detail, null, null, null, false, at];
        } else if (point.notApplicable && rng.next() < point.notApplicable) {
          row = [...base, 'not_applicable', null, 'text', point.text, null, null, weight, false, null, 'logprobs', 'Nothing in the question calls for a source, so the criterion does not apply.', null, null, null, false, at];
        } else if (rng.next() < 0.006) {
          errors++;
          const judges = JUDGES.map((judge) => ({ judge, score: null, distribution: null, reasoning: null, error: 'timed out after 3 attempts (60 s each)' }));
          row = [...base, 'error', null, 'text', point.text, null, null, weight, point.gate ?? false, null, null, 'Every judge of the panel failed: timed out after 3 attempts.', JSON.stringify(judges), null, null, false, at];
        } else {
          const panel = JUDGES.map((judge) => {
            const probs = classDistribution(clamp01(t + rng.normal(0.12)));
            const s = expected(probs);
            return { judge, probs, score: Math.round(s * 1000) / 1000, reasoning: judgeReasoning(point.text, Math.round(s * 4), rng) };
          });
          score = panel.reduce((a, j) => a + j.score, 0) / panel.length;
          const mean = CLASSES.map((_c, i) => Math.round((panel.reduce((a, j) => a + (j.probs[i] ?? 0), 0) / panel.length) * 1000) / 1000);
          const spread = Math.sqrt(panel.reduce((a, j) => a + (j.score - (score as number)) ** 2, 0) / panel.length);
          const closest = [...panel].sort((x, y) => Math.abs(x.score - (score as number)) - Math.abs(y.score - (score as number)))[0];
          const judges = panel.map((j) => ({ judge: j.judge, score: j.score, distribution: asLabels(j.probs), reasoning: j.reasoning, error: null }));
          row = [
            ...base, score >= 0.5 ? 'pass' : 'fail', score, 'text', point.text, null, null, weight, point.gate ?? false,
            JSON.stringify(asLabels(mean)), 'logprobs', closest?.reasoning ?? null, JSON.stringify(judges), spread,
            clamp01(0.92 - spread * 2 + rng.normal(0.04)), spread > 0.2, at,
          ];
        }
        if (row[6] === 'error') errorVerdicts++;
        if (score !== null) {
          total += score * weight;
          weights += weight;
          if (point.gate && score < 0.5) gateFailed = true;
        }
        w.verdicts.push(row);
      }
      const attempt = weights === 0 ? 1 : gateFailed ? 0 : total / weights;
      w.attempts.push([`${replyId}~a`, runId, replyId, spec.key, modelId, attempt, errors, gateFailed, weights === 0]);
      await w.maybeFlush();
    }
  }
  await w.maybeFlush(true);
  return { verdicts: w.verdictCount, errorVerdicts, errorReplies, cost };
}

async function ensureSource(db: Db): Promise<string> {
  const source = await db.blueprintSource.upsert({
    where: { key: SOURCE_KEY },
    create: { key: SOURCE_KEY, kind: 'github', owner: 'assay-demo', repo: 'blueprints', branch: 'main' },
    update: {},
  });
  return source.id;
}

/** Seeds (or re-seeds, replacing) the blueprint `demo__<slug>` and its runs. */
export async function seedBlueprint(db: Db, opts: SeedBlueprintOptions): Promise<SeededBlueprint> {
  const rng = seededRng(opts.seed ?? 7);
  const now = opts.now ?? new Date();
  const blueprintId = `demo__${opts.slug}`;
  const path = `demo/${opts.slug}.yml`;
  const sourceId = await ensureSource(db);
  await db.blueprint.deleteMany({ where: { id: blueprintId } });

  const specs = promptSpecs(opts, rng);
  const rawText = blueprintYaml(opts, specs);
  const commit = sha1(`${opts.slug}:${rawText.length}`);
  const versionId = `${opts.slug}-v1`;
  await db.blueprint.create({
    data: {
      id: blueprintId,
      sourceId,
      path,
      title: opts.title,
      description: opts.description ?? null,
      tags: opts.tags ?? [],
      author: { name: 'Assay demo', url: 'https://example.org/assay' },
      promptCount: specs.length,
    },
  });
  await db.blueprintVersion.create({
    data: {
      id: versionId,
      blueprintId,
      contentHash: createHash('sha256').update(rawText).digest('hex'),
      sourceCommit: commit,
      path,
      rawText,
      validationErrors: [],
      valid: true,
      parserVersion: 'seed',
      promptCount: specs.length,
      createdAt: new Date(now.getTime() - 30 * DAY),
    },
  });
  await bulkInsert(
    db,
    'version_prompts',
    [
      { name: 'id', type: 'text' },
      { name: 'version_id', type: 'text' },
      { name: 'prompt_key', type: 'text' },
      { name: 'position', type: 'int' },
      { name: 'messages', type: 'jsonb' },
      { name: 'ideal', type: 'text' },
      { name: 'weight', type: 'double precision' },
      { name: 'split', type: 'text' },
      { name: 'category', type: 'text' },
      { name: 'points', type: 'jsonb' },
      { name: 'point_count', type: 'int' },
    ],
    specs.map((s, position) => [
      `${versionId}~${position}`, versionId, s.key, position, JSON.stringify(s.template.messages), s.template.ideal ?? null, s.weight,
      s.sealed ? 'test' : 'dev', s.template.category, JSON.stringify(s.points.map(corePoint)), s.points.length,
    ]),
  );
  await db.blueprint.update({ where: { id: blueprintId }, data: { latestVersionId: versionId } });
  for (const id of opts.models) {
    await db.model.upsert({ where: { id }, create: { id, provider: id.split(':')[0] ?? 'unknown', displayName: displayName(id) }, update: {} });
  }

  const baseSkills = opts.models.map((_m, i) => 0.88 - (0.5 * i) / Math.max(1, opts.models.length - 1) + rng.normal(0.04));
  const hostileKey = specs.find((s) => s.template.key === 'markdown-planets-table')?.key;
  const hostileModel = opts.models[Math.min(2, opts.models.length - 1)] as string;
  const runIds: string[] = [];
  const verdictsPerRun: number[] = [];
  let hostile: SeededBlueprint['hostile'] = null;
  for (let r = 0; r < opts.completedRuns; r++) {
    const runId = `${opts.slug}-run-${r + 1}`;
    const createdAt = new Date(now.getTime() - (opts.completedRuns - r) * 7 * DAY + 3_600_000);
    const last = r === opts.completedRuns - 1;
    const hostileHere = opts.hostileReply && last && hostileKey ? { promptKey: hostileKey, modelId: hostileModel } : null;
    if (hostileHere) hostile = { runId, ...hostileHere };
    await db.run.create({
      data: {
        id: runId,
        identityHash: sha1(`${runId}:identity`),
        blueprintId,
        versionId,
        sourceCommit: commit,
        status: 'running',
        trigger: r === 0 ? 'manual' : 'schedule',
        models: opts.models,
        judges: JUDGES,
        config: { repeats: 1, temperatures: [0], systems: [null], bypassCache: r > 0 },
        createdAt,
        startedAt: new Date(createdAt.getTime() + 5_000),
      },
    });
    // each run a little different: drift is what the trend chart shows
    const skills = baseSkills.map((s, i) => clamp01(s + (i % 3 === 0 ? 0.03 * r : -0.02 * r) + rng.normal(0.02)));
    const counts = await seedRunRows({ db, runId, createdAt, specs, models: opts.models, skills, rng, hostile: hostileHere });
    const calls = specs.length * opts.models.length;
    await db.run.update({
      where: { id: runId },
      data: {
        status: 'completed',
        totalCalls: calls,
        doneCalls: calls,
        errorCalls: counts.errorReplies,
        totalVerdicts: counts.verdicts,
        doneVerdicts: counts.verdicts,
        errorVerdicts: counts.errorVerdicts,
        costUsd: counts.cost,
        finishedAt: new Date(createdAt.getTime() + 5_000 + calls * 40),
      },
    });
    // the pipeline's own summariser: cells from the attempt scores, then models and the leaderboard
    await summariseRun(db, runId, { rebuildCells: true });
    runIds.push(runId);
    verdictsPerRun.push(counts.verdicts);
  }

  let runningRunId: string | null = null;
  if (opts.running) {
    runningRunId = `${opts.slug}-run-live`;
    const calls = specs.length * opts.models.length;
    const createdAt = new Date(now.getTime() - 4 * 60_000);
    await db.run.create({
      data: {
        id: runningRunId,
        identityHash: sha1(`${runningRunId}:identity`),
        blueprintId,
        versionId,
        sourceCommit: commit,
        status: 'running',
        trigger: 'manual',
        models: opts.models,
        judges: JUDGES,
        config: { repeats: 1, temperatures: [0], systems: [null] },
        totalCalls: calls,
        doneCalls: Math.floor(calls * 0.4),
        errorCalls: 1,
        totalVerdicts: calls * opts.points,
        doneVerdicts: Math.floor(calls * opts.points * 0.3),
        errorVerdicts: 2,
        costUsd: 0.0123,
        createdAt,
        startedAt: new Date(createdAt.getTime() + 2_000),
      },
    });
  }

  return {
    blueprintId,
    versionId,
    runIds,
    runningRunId,
    promptKeys: specs.filter((s) => !s.sealed).map((s) => s.key),
    sealedKeys: specs.filter((s) => s.sealed).map((s) => s.key),
    models: opts.models,
    verdictsPerRun,
    hostile,
  };
}
