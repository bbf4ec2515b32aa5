/**
 * A prompt within a run: the conversation, its points, the points × models grid (every
 * model at a glance), and the replies side by side with every verdict. With `?model=` one
 * model's reply is the focus (the cell); the others follow a few at a time, so the page
 * stays small however many models ran.
 */
import { z } from 'zod';
import type { GridVerdict, PromptReply, RunPrompt } from '../db/queries/run-prompt';
import type { RunModelRow } from '../db/queries/run-ranking';
import { scoreColour } from './colour-scale';
import { formatCount, formatDuration, formatScore, formatUsd, modelShortName, plural } from './format';
import { paginationView, type PaginationView } from './pagination';
import { href } from './urls';
import { STATUS_LABEL, verdictView, type VerdictStatus, type VerdictView } from './verdict-view';

/** Replies shown side by side per page: enough to compare, few enough to read. */
export const COMPARE_PAGE_SIZE = 3;

const StoredPoint = z.object({ kind: z.string(), text: z.string(), weight: z.number().optional(), gate: z.boolean().optional() }).loose();
const StoredMessage = z.object({ role: z.string(), content: z.string().nullable() });

export interface PointHeaderView {
  index: number;
  anchor: string;
  text: string;
  kindLabel: string;
  weightLabel: string | null;
  gate: boolean;
  href: string;
}

export interface GridCellView {
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
  conversation: { roleLabel: string; content: string | null; generated: boolean }[];
  system: string | null;
  ideal: string | null;
  citation: string | null;
  points: PointHeaderView[];
  grid: {
    columns: { modelId: string; label: string; href: string; selected: boolean }[];
    rows: { point: PointHeaderView; cells: GridCellView[] }[];
    totals: GridCellView[];
  };
  previousHref: string | null;
  nextHref: string | null;
  selectedModelId: string | null;
  selectedLabel: string | null;
  /** Models whose replies the page loads: the focused one first, then this page of the others. */
  replyModelIds: string[];
  comparePagination: PaginationView | null;
  compareModelIds: string[];
}

const KIND: Record<string, string> = { text: 'judged', question: 'judge question', function: 'function', correct: 'structured check' };

export function parsePoints(stored: unknown): { text: string; kind: string; weight: number; gate: boolean }[] {
  if (!Array.isArray(stored)) return [];
  return stored.map((p, i) => {
    const parsed = StoredPoint.safeParse(p);
    return parsed.success
      ? { text: parsed.data.text, kind: parsed.data.kind, weight: parsed.data.weight ?? 1, gate: parsed.data.gate ?? false }
      : { text: `Point ${i + 1}`, kind: 'unknown', weight: 1, gate: false };
  });
}

export function conversation(stored: unknown): PromptPageView['conversation'] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((m) => {
    const parsed = StoredMessage.safeParse(m);
    if (!parsed.success) return [];
    const role = parsed.data.role;
    return [{ roleLabel: role === 'user' ? 'User' : role === 'assistant' ? 'Assistant' : 'System', content: parsed.data.content, generated: role === 'assistant' && parsed.data.content === null }];
  });
}

function gridCell(label: string, what: string, score: number | null, status: VerdictStatus | null, link: string): GridCellView {
  const colours = status === 'error' || status === 'not_applicable' ? scoreColour(null) : scoreColour(score);
  const text = status === 'error' ? 'err' : status === 'not_applicable' ? 'n/a' : score === null ? '—' : formatScore(score, 0);
  const said = status === 'error' ? 'error' : status === 'not_applicable' ? 'not applicable' : score === null ? 'no verdict' : `${STATUS_LABEL[status ?? 'pass']}, score ${formatScore(score)}`;
  return { text, ariaLabel: `${what} × ${label}: ${said}`, background: colours.background, color: colours.color, href: link };
}

export function promptPageView(runId: string, data: RunPrompt, ranking: RunModelRow[], opts: { model: string | null; compare: number }): PromptPageView {
  const { prompt } = data;
  const key = prompt.promptKey;
  const points = parsePoints(prompt.points).map((p, index) => ({
    index,
    anchor: `point-${index}`,
    text: p.text,
    kindLabel: KIND[p.kind] ?? p.kind,
    weightLabel: p.weight === 1 ? null : `weight ${p.weight}`,
    gate: p.gate,
    href: href.point(runId, key, index),
  }));
  const ranked = ranking.map((m) => m.modelId);
  const seen = new Set(ranked);
  // models that replied but have no summary (an unfinished run) still get a column
  const models = [...ranked, ...data.cells.map((c) => c.modelId).filter((m) => !seen.has(m)).sort()];
  const names = new Map(ranking.map((m) => [m.modelId, modelShortName(m.modelId, m.displayName)]));
  const label = (m: string) => names.get(m) ?? modelShortName(m);
  const selected = opts.model && models.includes(opts.model) ? opts.model : null;

  const verdicts = new Map<string, GridVerdict>(data.grid.map((v) => [`${v.modelId}\u0000${v.pointIndex}`, v]));
  const cells = new Map(data.cells.map((c) => [c.modelId, c]));
  const columns = models.map((m) => ({ modelId: m, label: label(m), href: href.cell(runId, key, m), selected: m === selected }));
  const rows = points.map((point) => ({
    point,
    cells: models.map((m) => {
      const v = verdicts.get(`${m}\u0000${point.index}`);
      return gridCell(label(m), `Point ${point.index + 1}`, v?.score ?? null, v ? v.status : null, `${href.prompt(runId, key, { model: m })}#${point.anchor}`);
    }),
  }));
  const totals = models.map((m) => {
    const c = cells.get(m);
    const g = gridCell(label(m), 'Prompt score', c?.score ?? null, c && c.score === null ? 'error' : c ? 'pass' : null, href.cell(runId, key, m));
    return c && c.score !== null ? { ...g, ariaLabel: `Prompt score × ${label(m)}: ${formatScore(c.score)}${c.errorCount ? `, ${plural(c.errorCount, 'error')}` : ''}` } : g;
  });

  const others = models.filter((m) => m !== selected);
  const pageSize = selected ? COMPARE_PAGE_SIZE : COMPARE_PAGE_SIZE + 1;
  const pages = Math.max(1, Math.ceil(others.length / pageSize));
  const compare = Math.min(Math.max(1, opts.compare), pages);
  const compareModelIds = others.slice((compare - 1) * pageSize, compare * pageSize);
  const message = conversation(prompt.messages);
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
    points,
    grid: { columns, rows, totals },
    previousHref: data.previousKey ? href.prompt(runId, data.previousKey, { model: selected }) : null,
    nextHref: data.nextKey ? href.prompt(runId, data.nextKey, { model: selected }) : null,
    selectedModelId: selected,
    selectedLabel: selected ? label(selected) : null,
    replyModelIds: [...(selected ? [selected] : []), ...compareModelIds],
    comparePagination:
      others.length > pageSize
        ? paginationView(compare, pageSize, others.length, selected ? 'other models' : 'models', (n) => `${href.prompt(runId, key, { model: selected, compare: n })}#replies`)
        : null,
    compareModelIds,
  };
}

export interface AttemptView {
  label: string | null;
  content: string | null;
  error: { kind: string; message: string } | null;
  scoreLabel: string;
  flags: string[];
  meta: string;
  verdicts: VerdictView[];
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
  background: string;
  color: string;
  attempts: AttemptView[];
}

export function replyCards(runId: string, promptKey: string, replies: PromptReply[], modelIds: string[], ranking: RunModelRow[], selected: string | null): ReplyCardView[] {
  const names = new Map(ranking.map((m) => [m.modelId, modelShortName(m.modelId, m.displayName)]));
  return modelIds.map((modelId) => {
    const mine = replies.filter((r) => r.modelId === modelId);
    const scored = mine.map((r) => r.attemptScores[0]?.score ?? null).filter((s): s is number => s !== null);
    const score = scored.length ? scored.reduce((a, b) => a + b, 0) / scored.length : null;
    const colours = scoreColour(score);
    return {
      modelId,
      label: names.get(modelId) ?? modelShortName(modelId),
      runModelHref: href.runModel(runId, modelId),
      cellHref: href.cell(runId, promptKey, modelId),
      pointLinkBase: href.prompt(runId, promptKey, { model: modelId }),
      selected: modelId === selected,
      scoreLabel: score === null ? (mine.some((r) => r.error) ? 'error' : '—') : formatScore(score),
      background: colours.background,
      color: colours.color,
      attempts: mine.map((r) => {
        const a = r.attemptScores[0];
        const flags = [
          ...(a?.gateFailed ? ['a gate failed: the attempt scores 0'] : []),
          ...(a?.noApplicable ? ['no point applied: scored 1 by rule'] : []),
          ...(r.fromCache ? ['from the response cache'] : []),
          ...(a && a.errorCount > 0 ? [plural(a.errorCount, 'verdict error')] : []),
        ];
        const meta = [
          r.promptTokens !== null && r.completionTokens !== null ? `${formatCount(r.promptTokens)} + ${formatCount(r.completionTokens)} tokens` : null,
          r.latencyMs !== null ? formatDuration(r.latencyMs) : null,
          r.costUsd !== null ? formatUsd(r.costUsd) : null,
          r.finishReason ? `finish: ${r.finishReason}` : null,
          r.temperature !== null ? `temperature ${r.temperature}` : null,
        ].filter(Boolean);
        return {
          label: mine.length > 1 ? `Attempt ${r.attempt + 1}${r.systemIndex || r.temperatureIndex ? ` (system ${r.systemIndex + 1}, temperature ${r.temperatureIndex + 1})` : ''}` : null,
          content: r.error ? null : r.content,
          error: r.error ? { kind: r.errorKind ?? 'error', message: r.error } : null,
          scoreLabel: r.error ? 'error' : formatScore(a?.score ?? null),
          flags,
          meta: meta.join(' · '),
          verdicts: r.verdicts.map(verdictView),
        };
      }),
    };
  });
}
