/** One criterion of one prompt, every model's verdict on it, best first; with the spread across models. */
import type { PointVerdict, VisiblePrompt } from '@/lib/server/db/queries/run-prompt';
import type { RunModelRow } from '@/lib/server/db/queries/run-ranking';
import { formatScore, modelShortName, plural } from './format';
import { pointHeaders } from './prompt-view';
import { paginationView, type PaginationView } from './pagination';
import { POINT_VERDICTS_PAGE_SIZE } from './params';
import { href } from './urls';
import { verdictView, type VerdictView } from './verdict-view';

export interface PointEntryView {
  modelId: string;
  label: string;
  cellHref: string;
  attemptLabel: string | null;
  verdict: VerdictView;
}

export interface PointPageView {
  heading: string;
  text: string;
  facts: string[];
  direction: string | null;
  citation: string | null;
  code: string | null;
  promptHref: string;
  summary: string;
  /** This page of the verdicts, best first. */
  entries: PointEntryView[];
  pagination: PaginationView | null;
}

/** `page`: which page of the verdicts (best first, `pageSize` a page) the entries are; the summary counts them all. */
export function pointPageView(
  runId: string,
  prompt: VisiblePrompt,
  pointIndex: number,
  verdicts: PointVerdict[],
  ranking: RunModelRow[],
  page = 1,
  pageSize = POINT_VERDICTS_PAGE_SIZE,
): PointPageView | null {
  const point = pointHeaders(runId, prompt.promptKey, prompt.points)[pointIndex];
  const stored = prompt.points[pointIndex] ?? null;
  if (!point && verdicts.length === 0) return null;
  const names = new Map(ranking.map((m) => [m.modelId, modelShortName(m.modelId, m.displayName)]));
  const scored = verdicts.filter((v) => v.score !== null && (v.status === 'pass' || v.status === 'fail'));
  const mean = scored.length ? scored.reduce((a, v) => a + (v.score as number), 0) / scored.length : null;
  const errors = verdicts.filter((v) => v.status === 'error').length;
  const passes = verdicts.filter((v) => v.status === 'pass').length;
  const pages = Math.max(1, Math.ceil(verdicts.length / pageSize));
  const shown = Math.min(Math.max(1, page), pages);
  const entries = [...verdicts]
    .sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || a.modelId.localeCompare(b.modelId) || a.reply.attempt - b.reply.attempt)
    .slice((shown - 1) * pageSize, shown * pageSize)
    .map((v) => ({
      modelId: v.modelId,
      label: names.get(v.modelId) ?? modelShortName(v.modelId),
      cellHref: `${href.prompt(runId, prompt.promptKey, { model: v.modelId })}#point-${pointIndex}`,
      attemptLabel: prompt.repeats > 1 ? `attempt ${v.reply.attempt + 1}` : null,
      verdict: verdictView(v, stored),
    }));
  const text = point?.text ?? verdicts[0]?.pointText ?? `Point ${pointIndex + 1}`;
  return {
    heading: `Point ${pointIndex + 1} of prompt ${prompt.promptKey}`,
    text,
    facts: [
      ...(point?.mustNot ? ['must not'] : []),
      point?.kindLabel ?? 'point',
      ...(point?.weightLabel ? [point.weightLabel] : []),
      ...(point?.gate ? ['gate'] : []),
      ...(point?.pathLabel ? [`${point.pathLabel} (alternative path)`] : []),
    ],
    direction: point?.direction ?? null,
    citation: point?.citation ?? null,
    code: point?.code ?? null,
    promptHref: `${href.prompt(runId, prompt.promptKey)}#point-${pointIndex}`,
    summary: `${plural(passes, 'pass', 'passes')} of ${plural(verdicts.length, 'verdict')}; mean ${formatScore(mean)}${errors ? `; ${plural(errors, 'error')}` : ''}.`,
    entries,
    pagination:
      verdicts.length > pageSize
        ? paginationView(shown, pageSize, verdicts.length, 'verdicts', (n) => `${href.point(runId, prompt.promptKey, pointIndex, { page: n })}#verdicts-h`)
        : null,
  };
}
