/**
 * A prompt within a run: the conversation, its points, the points × models grid (every
 * model at a glance), and the replies side by side with every verdict. With `?model=` one
 * model's reply is the focus (the cell); the others follow a few at a time, so the page
 * stays small however many models ran.
 */
import { pointCode, pointDirection, pointLabel, REPLY_OUTCOME_LABELS, replyOutcome, type PromptToolFields, type StoredPoint, type StoredToolCall, type StoredTurn } from '@/lib/core';
import type { GridVerdict, PromptReply, RunPrompt } from '@/lib/server/db/queries/run-prompt';
import type { RunModelRow } from '@/lib/server/db/queries/run-ranking';
import { scoreColour } from './colour-scale';
import { figureAttrs, type FigureAttrs } from './figures';
import { costLabel } from './cost-label';
import { formatCount, formatDuration, formatScore, modelShortName, plural } from './format';
import { paginationView, type PaginationView } from './pagination';
import { promptGridModels } from './params';
import { href } from './urls';
import { pathNames, scoreBreakdown, type ScoreBreakdownView } from './score-breakdown';
import { STATUS_LABEL, verdictView, type VerdictStatus } from './verdict-view';

/** Replies shown side by side per page: enough to compare, few enough to read. */
export const COMPARE_PAGE_SIZE = 3;

export interface PointHeaderView {
  index: number;
  anchor: string;
  /** The criterion as readable text. */
  text: string;
  code: string | null;
  kindLabel: string;
  weightLabel: string | null;
  gate: boolean;
  mustNot: boolean;
  direction: string | null;
  citation: string | null;
  /** "Path 1"… for a point of an alternative path; null for a required point. */
  pathLabel: string | null;
  href: string;
}

export interface TurnView {
  roleLabel: string;
  content: string | null;
  /** Written by the model under test (`assistant: null` in the blueprint), not by the blueprint's author. */
  generated: boolean;
}

export interface GridCellView {
  /** The figure the cell shows, when it is a prompt's score (the totals row). */
  figure?: FigureAttrs;
  text: string;
  ariaLabel: string;
  background: string;
  color: string;
  href: string;
}

export interface PromptPageView {
  key: string;
  heading: string;
  facts: string[];
  conversation: TurnView[];
  system: string | null;
  ideal: string | null;
  citation: string | null;
  /** Weval's tool-use fields as lines ("Required tools: search"), empty when the prompt has none; shown, never graded. */
  toolUse: string[];
  points: PointHeaderView[];
  grid: {
    columns: { modelId: string; label: string; href: string; selected: boolean }[];
    /** Rows grouped: gates, required points, then each alternative path (OR). */
    groups: { title: string; note: string; rows: { point: PointHeaderView; cells: GridCellView[] }[] }[];
    totals: GridCellView[];
    /** The grid's pages of models, when there are more than one page holds (params.ts `promptGridModels`). */
    pagination: PaginationView | null;
  };
  /** The focused cell's gate failure, said at the top of the page. */
  gateNote: string | null;
  previousHref: string | null;
  nextHref: string | null;
  selectedModelId: string | null;
  selectedLabel: string | null;
  /** Models whose replies the page loads: the focused one first, then this page of the others. */
  replyModelIds: string[];
  comparePagination: PaginationView | null;
  compareModelIds: string[];
}

const KIND: Record<string, string> = { text: 'judged', question: 'judge question', function: 'function', correct: 'structured check', criterion: 'criterion' };
const ROLE: Record<StoredTurn['role'], string> = { user: 'User', assistant: 'Assistant', system: 'System' };

/** The prompt's points as headers: readable labels, "must not", citations and the path each belongs to. */
export function pointHeaders(runId: string, promptKey: string, points: readonly StoredPoint[]): PointHeaderView[] {
  const paths = pathNames(points.map((p) => p.path));
  return points.map((p, index) => ({
    index,
    anchor: `point-${index}`,
    text: pointLabel(p),
    code: pointCode(p),
    kindLabel: KIND[p.kind] ?? p.kind,
    weightLabel: p.weight === 1 ? null : `weight ${p.weight}`,
    gate: p.gate,
    mustNot: p.source === 'should_not',
    direction: pointDirection(p),
    citation: p.citation,
    pathLabel: p.path !== null && p.path.trim() !== '' ? (paths.get(p.path) ?? p.path) : null,
    href: href.point(runId, promptKey, index),
  }));
}

/** The blueprint's conversation: an `assistant: null` turn is one the model under test writes. */
export function conversation(messages: readonly StoredTurn[]): TurnView[] {
  return messages.map((m) => ({ roleLabel: ROLE[m.role], content: m.content, generated: m.role === 'assistant' && m.content === null }));
}

/**
 * A reply's own conversation before its final answer, each turn marked generated or written.
 * The pipeline sends the blueprint's non-system turns in order, filling each `assistant: null`
 * and appending the final reply (lib/server/runs/chat/generate.ts), so the stored turns line up
 * with the blueprint's one for one. Empty when the model generated none of them.
 */
export function replyTurns(blueprint: readonly StoredTurn[], turns: readonly StoredTurn[]): { system: string[]; turns: TurnView[] } {
  const written = blueprint.filter((m) => m.role !== 'system');
  const sent = turns.filter((m) => m.role !== 'system');
  const before = sent.slice(0, Math.max(0, sent.length - 1));
  const shown = before.map((m, i) => ({ roleLabel: ROLE[m.role], content: m.content, generated: m.role === 'assistant' && written[i]?.role === 'assistant' && written[i]?.content === null }));
  return {
    system: turns.filter((m) => m.role === 'system').map((m) => m.content ?? ''),
    // with nothing generated the turns are the blueprint's own, shown once above the replies
    turns: shown.some((t) => t.generated) ? shown : [],
  };
}

function groupRows<R extends { point: PointHeaderView }>(rows: R[]): { title: string; note: string; rows: R[] }[] {
  const out: { title: string; note: string; rows: R[] }[] = [];
  const gates = rows.filter((r) => r.point.gate);
  const required = rows.filter((r) => !r.point.gate && r.point.pathLabel === null);
  if (gates.length) out.push({ title: 'Gates', note: 'must pass, or the prompt scores 0', rows: gates });
  if (required.length) out.push({ title: 'Required points', note: 'all count', rows: required });
  const paths = [...new Set(rows.filter((r) => !r.point.gate && r.point.pathLabel !== null).map((r) => r.point.pathLabel!))];
  for (const p of paths) out.push({ title: `${p} (OR)`, note: 'alternative path: the best path counts', rows: rows.filter((r) => !r.point.gate && r.point.pathLabel === p) });
  return out;
}

function gridCell(label: string, what: string, score: number | null, status: VerdictStatus | null, link: string): GridCellView {
  const colours = status === 'error' || status === 'not_applicable' ? scoreColour(null) : scoreColour(score);
  const text = status === 'error' ? 'err' : status === 'not_applicable' ? 'n/a' : score === null ? '—' : formatScore(score, 0);
  const said = status === 'error' ? 'error' : status === 'not_applicable' ? 'not applicable' : score === null ? 'no verdict' : `${STATUS_LABEL[status ?? 'pass']}, score ${formatScore(score)}`;
  return { text, ariaLabel: `${what} × ${label}: ${said}`, background: colours.background, color: colours.color, href: link };
}

export function promptPageView(runId: string, data: RunPrompt, ranking: RunModelRow[], opts: { model: string | null; compare: number; grid?: number }): PromptPageView {
  const { prompt } = data;
  const key = prompt.promptKey;
  const points = pointHeaders(runId, key, prompt.points);
  const ranked = ranking.map((m) => m.modelId);
  const seen = new Set(ranked);
  // models that replied but have no summary (an unfinished run) still get a column
  const models = [...ranked, ...data.cells.map((c) => c.modelId).filter((m) => !seen.has(m)).sort()];
  const names = new Map(ranking.map((m) => [m.modelId, modelShortName(m.modelId, m.displayName)]));
  const label = (m: string) => names.get(m) ?? modelShortName(m);
  const selected = opts.model && models.includes(opts.model) ? opts.model : null;

  const verdicts = new Map<string, GridVerdict>(data.grid.map((v) => [`${v.modelId}\u0000${v.pointIndex}`, v]));
  const cells = new Map(data.cells.map((c) => [c.modelId, c]));
  // the grid's page of models: the one asked for, else the page holding the focused model
  const perGridPage = promptGridModels(points.length);
  const gridPages = Math.max(1, Math.ceil(models.length / perGridPage));
  const gridPage = Math.min(Math.max(1, opts.grid ?? (selected ? Math.floor(models.indexOf(selected) / perGridPage) + 1 : 1)), gridPages);
  const gridModels = models.slice((gridPage - 1) * perGridPage, gridPage * perGridPage);
  const columns = gridModels.map((m) => ({ modelId: m, label: label(m), href: href.cell(runId, key, m), selected: m === selected }));
  const rows = points.map((point) => ({
    point,
    cells: gridModels.map((m) => {
      const v = verdicts.get(`${m}\u0000${point.index}`);
      return gridCell(label(m), `Point ${point.index + 1}`, v?.score ?? null, v ? v.status : null, `${href.prompt(runId, key, { model: m })}#${point.anchor}`);
    }),
  }));
  const totals = gridModels.map((m) => {
    const c = cells.get(m);
    const g = gridCell(label(m), 'Prompt score', c?.score ?? null, c && c.score === null ? 'error' : c ? 'pass' : null, href.cell(runId, key, m));
    const figure = c ? figureAttrs('score', { run: runId, model: m, prompt: key }, formatScore(c.score)) : undefined;
    return c && c.score !== null ? { ...g, figure, ariaLabel: `Prompt score × ${label(m)}: ${formatScore(c.score)}${c.errorCount ? `, ${plural(c.errorCount, 'error')}` : ''}` } : { ...g, figure };
  });

  const others = models.filter((m) => m !== selected);
  const pageSize = selected ? COMPARE_PAGE_SIZE : COMPARE_PAGE_SIZE + 1;
  const pages = Math.max(1, Math.ceil(others.length / pageSize));
  const compare = Math.min(Math.max(1, opts.compare), pages);
  const gridPagination =
    models.length > perGridPage ? paginationView(gridPage, perGridPage, models.length, 'models', (n) => `${href.prompt(runId, key, { model: selected, compare, grid: n })}#points-h`) : null;
  const compareModelIds = others.slice((compare - 1) * pageSize, compare * pageSize);
  const message = conversation(prompt.messages);
  const gated = selected ? data.gateFailures.find((g) => g.modelId === selected) : undefined;
  return {
    key,
    heading: `Prompt ${key}`,
    facts: [
      `position ${prompt.position + 1}`,
      plural(points.length, 'point'),
      ...(prompt.weight !== 1 ? [`weight ${prompt.weight}`] : []),
      ...(prompt.category ? [`category ${prompt.category}`] : []),
      ...(prompt.repeats > 1 ? [`${prompt.repeats} attempts per model`] : []),
    ],
    conversation: message,
    system: prompt.system,
    ideal: prompt.ideal,
    citation: prompt.citation,
    toolUse: toolUseLines(data.tools),
    points,
    grid: { columns, groups: groupRows(rows), totals, pagination: gridPagination },
    gateNote: gated
      ? `A gate failed for ${label(selected!)}: ${gated.pointIndexes.map((i) => `point ${i + 1} (“${points[i]?.text ?? ''}”)`).join(', ')} did not pass, so ${gated.attempts > 1 ? `${gated.failed} of ${gated.attempts} attempts score` : 'this reply scores'} 0 whatever its other points.`
      : null,
    previousHref: data.previousKey ? href.prompt(runId, data.previousKey, { model: selected }) : null,
    nextHref: data.nextKey ? href.prompt(runId, data.nextKey, { model: selected }) : null,
    selectedModelId: selected,
    selectedLabel: selected ? label(selected) : null,
    replyModelIds: [...(selected ? [selected] : []), ...compareModelIds],
    comparePagination:
      others.length > pageSize
        ? paginationView(compare, pageSize, others.length, selected ? 'other models' : 'models', (n) => `${href.prompt(runId, key, { model: selected, compare: n, ...(opts.grid ? { grid: gridPage } : {}) })}#replies`)
        : null,
    compareModelIds,
  };
}

/** A prompt's `requiredTools`, `prohibitedTools` and `maxCalls` in words (lib/core/blueprint/tool-fields.ts). */
export function toolUseLines(tools: PromptToolFields): string[] {
  return [
    ...(tools.requiredTools?.length ? [`Required tools: ${tools.requiredTools.join(', ')}`] : []),
    ...(tools.prohibitedTools?.length ? [`Prohibited tools: ${tools.prohibitedTools.join(', ')}`] : []),
    ...(tools.maxCalls !== undefined ? [`At most ${plural(tools.maxCalls, 'tool call')}`] : []),
  ];
}

export interface ToolCallView {
  name: string;
  /** The arguments as pretty JSON (or the raw string the model wrote when it was not JSON). */
  argumentsText: string;
}

export interface AttemptView {
  label: string | null;
  /** The system prompt(s) this reply was given. */
  system: string[];
  temperatureLabel: string;
  /** The conversation before the final reply, generated turns marked; empty for a single-turn prompt. */
  turns: TurnView[];
  content: string | null;
  /**
   * Said above the reply when it is not simply complete: the provider marked it as a refusal
   * ("Refused", its text is the content), or it stopped at the token limit ("cut off at the
   * token limit") and the points graded a partial answer. Null for a complete reply or an error.
   */
  outcome: { kind: 'refused' | 'cut_off'; label: string; detail: string } | null;
  toolCalls: ToolCallView[];
  error: { kind: string; message: string } | null;
  scoreLabel: string;
  /** Said first: this attempt's gate failed, so it scores 0. */
  gateNote: string | null;
  flags: string[];
  meta: string;
  breakdown: ScoreBreakdownView | null;
  /** The prompt's variants for this attempt, each its own conversation (`compare.*` grades them). */
  variants: { name: string; content: string | null; error: string | null }[];
}

export interface ReplyCardView {
  modelId: string;
  label: string;
  runModelHref: string;
  cellHref: string;
  /** This cell without the #cell anchor, for links to one of its verdicts (`#point-N`). */
  pointLinkBase: string;
  selected: boolean;
  scoreLabel: string;
  /** The cell's stored score as a figure (the heatmap and the run × model page show the same). */
  figure: FigureAttrs;
  background: string;
  color: string;
  attempts: AttemptView[];
}

function toolCallViews(calls: readonly StoredToolCall[] | null): ToolCallView[] {
  return (calls ?? []).map((c) => ({ name: c.name, argumentsText: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}, null, 2) }));
}

function outcomeView(r: Pick<PromptReply, 'refusal' | 'finishReason'>): AttemptView['outcome'] {
  const kind = replyOutcome(r);
  if (kind === 'complete') return null;
  const detail =
    kind === 'refused'
      ? `The provider marked this reply as a refusal (${r.refusal}); its text is shown and graded as the reply.`
      : `The reply stopped at the output token limit (finish reason “${r.finishReason}”), so the points graded a partial answer.`;
  return { kind, label: REPLY_OUTCOME_LABELS[kind], detail };
}

export function replyCards(
  runId: string,
  prompt: Pick<RunPrompt['prompt'], 'promptKey' | 'messages' | 'points'>,
  replies: PromptReply[],
  modelIds: string[],
  ranking: RunModelRow[],
  selected: string | null,
  /** The run's stored cell scores of this prompt (run_cell_summaries): the score a card shows. */
  cells: readonly { modelId: string; score: number | null }[] = [],
): ReplyCardView[] {
  const promptKey = prompt.promptKey;
  const headers = pointHeaders(runId, promptKey, prompt.points);
  const promptPaths = prompt.points.map((p) => p.path);
  const names = new Map(ranking.map((m) => [m.modelId, modelShortName(m.modelId, m.displayName)]));
  return modelIds.map((modelId) => {
    const mine = replies.filter((r) => r.modelId === modelId);
    // the stored cell score, made once when the run was summarised; before that (a run still
    // grading) the mean of the attempts scored so far
    const stored = cells.find((c) => c.modelId === modelId);
    const scored = mine.map((r) => r.attemptScores[0]?.score ?? null).filter((s): s is number => s !== null);
    const score = stored ? stored.score : scored.length ? scored.reduce((a, b) => a + b, 0) / scored.length : null;
    const colours = scoreColour(score);
    return {
      modelId,
      label: names.get(modelId) ?? modelShortName(modelId),
      runModelHref: href.runModel(runId, modelId),
      cellHref: href.cell(runId, promptKey, modelId),
      pointLinkBase: href.prompt(runId, promptKey, { model: modelId }),
      selected: modelId === selected,
      scoreLabel: score === null ? (mine.some((r) => r.error) ? 'error' : '—') : formatScore(score),
      figure: figureAttrs('score', { run: runId, model: modelId, prompt: promptKey }, formatScore(score)),
      background: colours.background,
      color: colours.color,
      attempts: mine.map((r) => {
        const a = r.attemptScores[0];
        const views = r.verdicts.map((v) => verdictView(v, prompt.points[v.pointIndex] ?? null));
        const failedGates = r.verdicts.filter((v) => v.gate && v.status === 'fail').map((v) => v.pointIndex);
        const flags = [
          ...(a?.noApplicable ? ['no point applied: scored 1 by rule'] : []),
          ...(r.fromCache ? ['from the response cache'] : []),
          ...(a && a.errorCount > 0 ? [plural(a.errorCount, 'verdict error')] : []),
        ];
        const meta = [
          r.promptTokens !== null && r.completionTokens !== null ? `${formatCount(r.promptTokens)} + ${formatCount(r.completionTokens)} tokens` : null,
          r.latencyMs !== null ? formatDuration(r.latencyMs) : null,
          // a reply without a cost was answered at a price nobody reported: unknown, not free; a failed call is billed nothing
          r.costUsd === null && r.error !== null ? null : `cost ${costLabel(r.costUsd)}`,
          r.finishReason ? `finish: ${r.finishReason}` : null,
        ].filter(Boolean);
        const conversationOf = replyTurns(prompt.messages, r.turns);
        return {
          label: mine.length > 1 ? `Attempt ${r.attempt + 1}${r.systemIndex || r.temperatureIndex ? ` (system ${r.systemIndex + 1}, temperature ${r.temperatureIndex + 1})` : ''}` : null,
          system: conversationOf.system,
          temperatureLabel: r.temperature === null ? 'temperature: the provider’s default' : `temperature ${r.temperature}`,
          turns: conversationOf.turns,
          content: r.error ? null : r.content,
          outcome: r.error ? null : outcomeView(r),
          toolCalls: toolCallViews(r.toolCalls),
          error: r.error ? { kind: r.errorKind ?? 'error', message: r.error } : null,
          scoreLabel: r.error ? 'error' : formatScore(a?.score ?? null),
          gateNote:
            a?.gateFailed || failedGates.length > 0
              ? `A gate failed: ${failedGates.map((i) => `point ${i + 1} (“${headers[i]?.text ?? ''}”)`).join(', ')} did not pass, so this attempt scores 0.`
              : null,
          flags,
          meta: meta.join(' · '),
          breakdown: r.error ? null : scoreBreakdown(r.verdicts, views, promptPaths, a ? a.score : undefined),
          variants: r.variants.map((v) => ({ name: v.name, content: v.error ? null : v.content, error: v.error })),
        };
      }),
    };
  });
}
