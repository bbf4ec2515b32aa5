/** The header every run page shares (state, facts, tabs, diff picker) and the run's model ranking. */
import { z } from 'zod';
import { competitionRanks, COVERAGE_RULE, coverageShare, JudgeSpecSchema, RunStatusSchema, withheldReason, gradesStoredReplies, type Coverage, type RunStatus } from '@/lib/core';
import type { RunHeader } from '@/lib/server/db/queries/run-header';
import type { RunModelCoverage, RunModelRow } from '@/lib/server/db/queries/run-ranking';
import { describeInterval, formatCount, formatDate, formatDateTime, formatDuration, formatInterval, formatScore, formatUsd, modelShortName, plural, shortSha } from './format';
import { intervalNote, type IntervalNoteView } from './interval-view';
import { intervalBar, type IntervalBar } from './leaderboard-view';
import { figureAttrs } from './figures';
import { href, type RunView } from './urls';
import { runJudgeMethods, runMixedMethodsNote } from './judge-method-view';
import type { JudgeMethodCount } from '@/lib/server/db/queries/run-judge-methods';
import { costLabel } from './cost-label';
import { runWaitJson, runWaitsView, type RunWaitView } from './run-wait-view';

export type StatusTone = 'ok' | 'working' | 'failed';

const STATUS: Record<RunStatus, { label: string; tone: StatusTone }> = {
  queued: { label: 'Queued', tone: 'working' },
  running: { label: 'Running', tone: 'working' },
  judging: { label: 'Judging', tone: 'working' },
  summarising: { label: 'Summarising', tone: 'working' },
  completed: { label: 'Completed', tone: 'ok' },
  failed: { label: 'Failed', tone: 'failed' },
  cancelled: { label: 'Cancelled', tone: 'failed' },
  budget_exceeded: { label: 'Stopped: budget reached', tone: 'failed' },
};

export function runStatus(status: string): { label: string; tone: StatusTone; working: boolean } {
  const known = RunStatusSchema.safeParse(status);
  const s = known.success ? STATUS[known.data] : { label: status, tone: 'failed' as const };
  return { ...s, working: s.tone === 'working' };
}

export interface RunTabView {
  label: string;
  href: string;
  current: boolean;
}

export interface RunHeaderView {
  id: string;
  title: string;
  blueprintTitle: string;
  blueprintHref: string;
  statusLabel: string;
  statusTone: StatusTone;
  working: boolean;
  progressHref: string;
  facts: { label: string; value: string; href?: string }[];
  tabs: RunTabView[];
  diffChoices: { label: string; href: string }[];
  error: string | null;
  /**
   * The judge panel, each judge flagged when it is also one of the run's graded models, with how
   * its answers were read ("log-probabilities", "3 samples each (the model refuses log-probabilities)"; null before any verdict).
   */
  judges: { label: string; alsoGraded: boolean; method: string | null }[];
  /** Said when the panel's answers were read by different methods (judge-method-view.ts). */
  judgeMethodsNote: string | null;
  /** Things a reader must know before trusting the numbers (a judge grading itself). */
  warnings: string[];
  /** For a rescore: the run whose replies it re-graded. */
  parent: { label: string; href: string } | null;
  /** The rescores of this run, newest first. */
  rescores: { label: string; href: string }[];
  /** A draft (try-it) run: the banner that says it is private and never on a leaderboard. */
  draftBanner: string | null;
  /** What a working run waits for and until when (run-wait-view.ts): why its counts stand still. */
  waits: RunWaitView[];
  /** The run's records as files (a chat run's verdicts, replies and attempt scores; none for a retrieval run). */
  downloads: { label: string; href: string }[];
}

const DOWNLOADS = [
  { table: 'verdicts', what: 'Verdicts (one row per point graded, with the judges)' },
  { table: 'replies', what: 'Replies (every reply and its conversation)' },
  { table: 'attempts', what: "Attempt scores (each reply's score)" },
] as const;

const pct = (x: number | null) => (x === null ? '' : ` (${Math.round(x * 100)}%)`);

/** "judged 10 of 12 (83%) · deterministic 12 of 12 (100%)": verdicts that got a result, per class. */
export function coverageText(c: Coverage): string {
  const parts: string[] = [];
  if (c.judgedVerdicts > 0) parts.push(`judged ${formatCount(c.judgedScored)} of ${formatCount(c.judgedVerdicts)}${pct(coverageShare(c, 'judged'))}`);
  if (c.deterministicVerdicts > 0) parts.push(`deterministic ${formatCount(c.deterministicScored)} of ${formatCount(c.deterministicVerdicts)}${pct(coverageShare(c, 'deterministic'))}`);
  return parts.length ? parts.join(' · ') : '—';
}

const StoredJudges = z.array(JudgeSpecSchema);
const StoredModels = z.array(z.string());

/** A run's judge panel as stored, each judge flagged when it is also a graded model, with how its answers were read (`methods`: run-judge-methods.ts). */
export function judgePanelView(judges: unknown, models: unknown, methods: readonly JudgeMethodCount[] = []): RunHeaderView['judges'] {
  const panel = StoredJudges.safeParse(judges);
  const graded = new Set(StoredModels.safeParse(models).data ?? []);
  if (!panel.success) return [];
  const read = runJudgeMethods(methods);
  return panel.data.map((j) => {
    const label = `${j.model} (${j.approach})`;
    return { label, alsoGraded: graded.has(j.model), method: read.get(label) ?? null };
  });
}

/** A batch-mode run says so, and what the providers' batch discount saved it (a live run shows neither). */
export function batchFacts(b: RunHeader['batch']): RunHeaderView['facts'] {
  if (b.mode !== 'batch') return [];
  return [
    { label: 'Mode', value: `batch: ${plural(b.lines, 'call')} in ${plural(b.batches, 'provider batch', 'provider batches')}` },
    { label: 'Batch discount', value: b.savedUsd === null ? 'unknown (no price for these models)' : `${formatUsd(b.savedUsd)} saved` },
  ];
}

/** `now` (passed by the page, never read here) lets the waits say how far off their moments are. */
export function runHeaderView(h: RunHeader, current: RunView | 'progress' | 'other', now: Date | null = null): RunHeaderView {
  const s = runStatus(h.status);
  const src = h.blueprint.source;
  const sha = shortSha(h.sourceCommit);
  const commitHref = src.kind === 'github' && src.owner && src.repo && h.sourceCommit ? `https://github.com/${src.owner}/${src.repo}/blob/${h.sourceCommit}/${h.blueprint.path}` : undefined;
  const retrieval = h.kind === 'retrieval';
  const facts: RunHeaderView['facts'] = [
    { label: 'Started', value: formatDateTime(h.startedAt ?? h.createdAt) },
    ...(h.finishedAt && h.startedAt ? [{ label: 'Took', value: formatDuration(h.finishedAt.getTime() - h.startedAt.getTime()) }] : []),
    ...(sha ? [{ label: 'Commit', value: sha, ...(commitHref ? { href: commitHref } : {}) }] : []),
    { label: 'Trigger', value: h.trigger },
    // a retrieval run embeds texts and scores queries: no replies, verdicts or judges
    ...(retrieval
      ? [
          { label: 'Texts embedded', value: `${formatCount(h.doneCalls)} of ${formatCount(h.totalCalls)}` },
          { label: 'Queries scored', value: `${formatCount(h.doneVerdicts)} of ${formatCount(h.totalVerdicts)}` },
          { label: 'Errors', value: plural(h.errorCalls, 'text not embedded', 'texts not embedded') },
          // embedding models are priced by their own table (providers/embeddings), not `unpricedModels`, and a
          // retrieval run stores no count of unpriced calls: this is what the priced calls cost
          { label: 'Cost', value: costLabel(h.costUsd) },
        ]
      : chatFacts(h)),
  ];
  const judges = judgePanelView(h.judges, h.models, h.judgeMethods);
  const tabs: RunTabView[] = [
    ...(retrieval
      ? [{ label: 'Results', href: href.run(h.id), current: current === 'prompts' }]
      : [
          { label: 'Heatmap', href: href.run(h.id), current: current === 'prompts' },
          { label: 'Models', href: href.run(h.id, { view: 'models' }), current: current === 'models' },
          { label: 'Points', href: href.run(h.id, { view: 'points' }), current: current === 'points' },
        ]),
    { label: 'Progress', href: href.progress(h.id), current: current === 'progress' },
  ];
  return {
    id: h.id,
    title: `Run of ${formatDate(h.createdAt)}`,
    blueprintTitle: h.blueprint.title,
    blueprintHref: href.blueprint(h.blueprint.id),
    statusLabel: s.label,
    statusTone: s.tone,
    working: s.working,
    progressHref: href.progress(h.id),
    facts,
    tabs,
    diffChoices: retrieval ? [] : h.siblings.map((o) => ({ label: `Run of ${formatDateTime(o.createdAt)}${o.sourceCommit ? ` (${shortSha(o.sourceCommit)})` : ''}`, href: href.diff(h.id, o.id) })),
    error: h.error,
    draftBanner: h.draft ? 'Draft run: a try-it run of an unpublished draft, seen only by its author and maintainers. It is never on a leaderboard.' : null,
    judges,
    judgeMethodsNote: runMixedMethodsNote(h.judgeMethods),
    warnings: [
      ...judges.filter((j) => j.alsoGraded).map((j) => `Judge ${j.label} is also a graded model in this run: it grades its own replies, which can favour them.`),
      ...(retrieval || s.working || h.status === 'failed' || !withheldReason(h.coverage)
        ? []
        : [`Coverage: ${withheldReason(h.coverage)}. ${COVERAGE_RULE} Withheld scores never reach the leaderboard (see Models).`]),
    ],
    parent: h.parentRun ? { label: `Rescore of the run of ${formatDateTime(h.parentRun.createdAt)}`, href: href.run(h.parentRun.id) } : null,
    rescores: h.rescores.map((r) => ({ label: `Run of ${formatDateTime(r.createdAt)} (${runStatus(r.status).label.toLowerCase()})`, href: href.run(r.id) })),
    // the progress page's live section says them, kept current by its polling
    waits: s.working && current !== 'progress' ? runWaitsView(h.waits.map(runWaitJson), now) : [],
    downloads: retrieval
      ? []
      : DOWNLOADS.flatMap(({ table, what }) => [
          { label: `${what}, CSV`, href: href.runExport(h.id, { table, format: 'csv' }) },
          { label: `${what}, JSONL`, href: href.runExport(h.id, { table, format: 'jsonl' }) },
        ]),
  };
}

/** A chat run's counts: replies, verdicts, errors, coverage and cost. */
function chatFacts(h: RunHeader): RunHeaderView['facts'] {
  return [
    // a rescore calls no model: its replies are the parent run's, re-graded
    { label: 'Replies', value: gradesStoredReplies(h) && h.parentRun ? `${formatCount(h.totalCalls)} stored, re-graded (no model called)` : `${formatCount(h.doneCalls)} of ${formatCount(h.totalCalls)}` },
    { label: 'Verdicts', value: formatCount(h.doneVerdicts) },
    { label: 'Errors', value: `${plural(h.errorCalls, 'failed reply', 'failed replies')}, ${plural(h.errorVerdicts, 'verdict error')}` },
    { label: 'Coverage', value: coverageText(h.coverage) },
    { label: 'Cost', value: costLabel(h.costUsd, h.unpricedModels) },
    ...batchFacts(h.batch),
  ];
}

export interface RankingEntryView {
  rank: number | null;
  modelId: string;
  label: string;
  href: string;
  modelPageHref: string;
  scoreLabel: string;
  intervalLabel: string | null;
  intervalText: string;
  bar: IntervalBar | null;
  prompts: string;
  replies: string;
  verdicts: string;
  errors: number;
  cost: string;
  latency: string;
  /** Verdicts behind the score that got a result, judged and deterministic apart. */
  coverage: string;
  /** Why the score is withheld (it is then "—"), or null. */
  withheld: string | null;
  /** The interval's method, prompts and attempts, shown beside it (null: none recorded). */
  intervalNote: IntervalNoteView | null;
  figures: ReturnType<typeof runFigures>;
}

/** A model's figures in a run (its stored summary), by the identity every page that shows them gives them. */
export function runFigures(runId: string, modelId: string, scoreLabel: string, intervalLabel: string | null, rank: number | null) {
  const scope = { run: runId, model: modelId };
  return {
    score: figureAttrs('score', scope, scoreLabel),
    interval: intervalLabel ? figureAttrs('interval', scope, intervalLabel) : null,
    rank: rank === null ? null : figureAttrs('rank', scope, String(rank)),
  };
}

/** How a run's model scores are made and when one is withheld: the caption of every run ranking. */
export const RANKING_CAPTION = `Every model in this run, best first: prompt-weighted score (0–100), 95% interval over prompts (its method and what it rests on beneath it), and coverage (verdicts that got a result). ${COVERAGE_RULE}`;

/** `unpricedModels`: the run's models with no known price (RunHeader), whose cost column says unknown rather than $0. */
export function rankingView(runId: string, rows: (RunModelRow & Partial<RunModelCoverage>)[], unpricedModels: readonly string[] = []): RankingEntryView[] {
  const ranks = competitionRanks(rows.map((r) => r.score));
  return rows.map((r, i) => ({
    rank: ranks[i] ?? null,
    modelId: r.modelId,
    label: modelShortName(r.modelId, r.displayName),
    href: href.runModel(runId, r.modelId),
    modelPageHref: href.model(r.modelId),
    scoreLabel: formatScore(r.score),
    intervalLabel: formatInterval(r.ciLow, r.ciHigh),
    figures: runFigures(runId, r.modelId, formatScore(r.score), formatInterval(r.ciLow, r.ciHigh), ranks[i] ?? null),
    intervalText: describeInterval(r.ciLow, r.ciHigh),
    bar: intervalBar(r.score, r.ciLow, r.ciHigh),
    prompts: formatCount(r.promptCount),
    replies: formatCount(r.replyCount),
    verdicts: formatCount(r.verdictCount),
    errors: r.errorCount,
    cost: costLabel(r.costUsd, unpricedModels.includes(r.modelId) ? [r.modelId] : []),
    latency: r.latencyMsP50 === null ? '—' : formatDuration(r.latencyMsP50),
    coverage: coverageText({ judgedVerdicts: r.judgedVerdicts ?? 0, judgedScored: r.judgedScored ?? 0, deterministicVerdicts: r.deterministicVerdicts ?? 0, deterministicScored: r.deterministicScored ?? 0 }),
    withheld: r.withheldReason ?? null,
    intervalNote: intervalNote(r.interval),
  }));
}
