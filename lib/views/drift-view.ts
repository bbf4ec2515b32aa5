/**
 * The drift page's view model: each stored drift check as a reader reads it (the change in
 * points with its interval, the blueprint's MDE, whether the provider changed what it served),
 * with links to both runs, their diff and the cells of the prompts that moved most; and the
 * filters. Pure: the query's rows and the model names come in.
 */
import { z } from 'zod';
import type { DriftCheckRow, DriftList } from '@/lib/server/db/queries/drift';
import { figureAttrs, type FigureAttrs } from './figures';
import { formatDate, formatDelta, formatScore, modelShortName, plural } from './format';
import { formatMde, mdeFigure } from './planner-view';
import { href } from './urls';

/**
 * The identity of a model's change between two runs (lib/core driftDifference: the drift check's
 * `difference`, the run diff page's change), wherever a page shows it; the value is `formatDelta`'s.
 */
export function differenceFigure(fromRunId: string, toRunId: string, modelId: string, difference: number): FigureAttrs {
  return figureAttrs('difference', { from: fromRunId, to: toRunId, model: modelId }, formatDelta(difference));
}

const optionalString = z.string().min(1).max(500).optional().catch(undefined);

/** `?blueprint=…&model=…&all=1`: a malformed value falls back to no filter. */
export const DriftParams = z.object({
  blueprint: optionalString,
  model: optionalString,
  all: z
    .enum(['1', 'true', 'on'])
    .optional()
    .catch(undefined)
    .transform((v) => v !== undefined),
});

export interface DriftMovedView {
  promptKey: string;
  label: string;
  change: string;
  beforeHref: string;
  afterHref: string;
}

export interface DriftCheckView {
  id: string;
  flagged: boolean;
  statusLabel: string;
  blueprintTitle: string;
  blueprintHref: string;
  modelName: string;
  modelId: string;
  modelHref: string;
  fromLabel: string;
  fromHref: string;
  toLabel: string;
  toHref: string;
  diffHref: string;
  /** "−35.0 points" (after − before); "—" without one. */
  difference: string;
  /** "−35.0", shown with `figure`; null without a difference. */
  differenceValue: string | null;
  figure: FigureAttrs | null;
  /** "−48.3 to −21.7 points (95%)". */
  interval: string;
  /** The earlier run's MDE: "±23.5 points", or "no MDE"; `mdeValue` ("23.5") is shown with `mdeFigure`. */
  mde: string;
  mdeValue: string | null;
  mdeFigure: FigureAttrs | null;
  prompts: string;
  reason: string;
  /** Set when the provider's served model or fingerprint differs between the runs. */
  servedChange: { headline: string; details: string[] } | null;
  /** Served identity when it did not change (or is unknown). */
  served: string;
  moved: DriftMovedView[];
}

export interface DriftPageView {
  summary: string;
  checks: DriftCheckView[];
  empty: string;
  filters: {
    blueprint: string | null;
    model: string | null;
    all: boolean;
    blueprints: { value: string; label: string }[];
    models: { value: string; label: string }[];
  };
}

const points = (x: number | null) => (x === null ? '—' : `${formatDelta(x)} points`);

function servedPair(label: string, before: string | null, after: string | null): string | null {
  if (before === null || after === null || before === after) return null;
  return `${label} ${before} → ${after}`;
}

export function driftCheckView(c: DriftCheckRow, names: ReadonlyMap<string, string>): DriftCheckView {
  const modelName = modelShortName(c.modelId, names.get(c.modelId));
  const details = [servedPair('served model', c.servedModelBefore, c.servedModelAfter), servedPair('fingerprint', c.fingerprintBefore, c.fingerprintAfter)].filter((x): x is string => x !== null);
  const known = [c.servedModelAfter, c.fingerprintAfter].filter((x): x is string => x !== null);
  return {
    id: c.id,
    flagged: c.flagged,
    statusLabel: c.flagged ? 'Drift' : 'No drift',
    blueprintTitle: c.blueprintTitle,
    blueprintHref: href.blueprint(c.blueprintId),
    modelName,
    modelId: c.modelId,
    modelHref: href.model(c.modelId),
    fromLabel: formatDate(c.fromRunAt),
    fromHref: href.run(c.fromRunId),
    toLabel: formatDate(c.toRunAt),
    toHref: href.run(c.toRunId),
    diffHref: href.diff(c.toRunId, c.fromRunId),
    difference: points(c.difference),
    differenceValue: c.difference === null ? null : formatDelta(c.difference),
    figure: c.difference === null ? null : differenceFigure(c.fromRunId, c.toRunId, c.modelId, c.difference),
    interval: c.ciLow === null || c.ciHigh === null ? 'no interval (fewer than two prompts in both runs)' : `${formatDelta(c.ciLow)} to ${formatDelta(c.ciHigh)} points (95%)`,
    // the MDE the check compared with is the earlier run's (runs.mde): the same figure as that run's planner
    mde: c.mde === null ? 'no MDE' : `±${formatMde(c.mde)} points`,
    mdeValue: c.mde === null ? null : formatMde(c.mde),
    mdeFigure: c.mde === null ? null : mdeFigure(c.fromRunId, c.mde),
    prompts: plural(c.paired, 'prompt'),
    reason: c.reason,
    servedChange: c.servedChanged ? { headline: 'The provider changed the model behind the id', details } : null,
    served: known.length ? `served as ${known.join(', ')} in both runs` : 'the provider did not say what it served',
    moved: c.moved.map((m) => ({
      promptKey: m.promptKey,
      label: m.promptKey,
      change: `${formatScore(m.before)} → ${formatScore(m.after)} (${formatDelta(m.delta)})`,
      beforeHref: href.cell(c.fromRunId, m.promptKey, c.modelId),
      afterHref: href.cell(c.toRunId, m.promptKey, c.modelId),
    })),
  };
}

export function driftPageView(list: DriftList, names: ReadonlyMap<string, string>, params: z.output<typeof DriftParams>): DriftPageView {
  const filtered = Boolean(params.blueprint || params.model);
  return {
    summary: `${plural(list.flagged, 'flagged drift', 'flagged drifts')} among ${plural(list.total, 'check')} of consecutive scheduled runs.`,
    checks: list.checks.map((c) => driftCheckView(c, names)),
    empty: params.all
      ? filtered
        ? 'No drift checks match these filters.'
        : 'No drift checks yet: they are made when a scheduled run finishes after an earlier scheduled run of the same blueprint version.'
      : filtered
        ? 'No flagged drift matches these filters.'
        : 'No flagged drift: no scheduled re-run has changed significantly beyond its blueprint’s minimum detectable effect.',
    filters: {
      blueprint: params.blueprint ?? null,
      model: params.model ?? null,
      all: params.all,
      blueprints: list.blueprints.map((b) => ({ value: b.id, label: b.title })),
      models: list.models.map((m) => ({ value: m, label: modelShortName(m, names.get(m)) })),
    },
  };
}
