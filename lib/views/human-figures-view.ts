/**
 * How the figures made from people's labels read on the pages: judges checked against people
 * (the blueprint page's calibration section and the one line beside judged numbers), the
 * prediction-powered scores, and people's pairwise ranking. The numbers are computed once and
 * stored (lib/core/human/stored.ts, `human_figures`); this only words, rounds and orders them.
 *
 * Figure identities (figures.ts): α between judges and people is a different quantity from α
 * between the judges themselves (`alpha|blueprint=<id>`), so it names what was compared in
 * `metric`: `alpha|blueprint=<id>|metric=human-vs-panel`, `…|metric=human-vs-judge:<judge>`,
 * `…|metric=human-vs-human` (every blueprint together: `board=all` in place of the blueprint).
 * As everywhere, an α number is shown only over ALPHA_MIN_UNITS items or more, and the element
 * that carries its figure shows exactly "α 0.81" (the interval sits beside it), so the crawler's
 * checks hold for these α as for the judges'. The judge-only and prediction-powered means are not
 * the run's score (they cover judged points only): `score|run=<id>|model=<id>|metric=judge-only`
 * and `metric=prediction-powered`. People's ranking is its own board: `rank|board=pairs|model=<id>`.
 */
import type { ReviewOverview } from '@/lib/server/db/queries/review-overview';
import { ALPHA_MIN_UNITS, bandLabel, DEFAULT_REVIEW_DESIGN, type CalibrationFigures, type IntervalFigure, type ModelPpi, type PairwiseFigures } from '@/lib/core';
import { figureAttrs, type FigureAttrs, type FigureScope } from './figures';
import { ago } from './admin-view';
import { formatCount, formatDateTime, formatDelta, formatInterval, formatPercent, formatScore, modelShortName, plural, roundHalfUp } from './format';
import { formatAlpha, type AlphaAttrs } from './judge-reliability-view';
import { METHODOLOGY_PATH } from './methodology-text';
import { href } from './urls';

/** Where reviewers label and compare replies. */
export const REVIEW_PATH = '/review';
/** The anchor of the calibration section on the blueprint page (and the methodology page). */
export const HUMAN_CALIBRATION_ANCHOR = 'human-calibration';

/** A statistic at two decimals with a true minus sign: "0.81", "−0.12". */
const two = (x: number): string => formatAlpha(x);

/** A difference at two decimals with its sign always written: "+0.06", "−0.03", "±0.00". */
export function formatSigned(x: number): string {
  const r = roundHalfUp(x, 2);
  if (r === 0) return '±0.00';
  return `${r > 0 ? '+' : '−'}${Math.abs(r).toFixed(2)}`;
}

/** "[0.74–0.87]", or null when either end is missing. */
function bracket(low: number | null, high: number | null, format: (x: number) => string = two): string | null {
  return low === null || high === null ? null : `[${format(low)}–${format(high)}]`;
}

/** An α between judges and people as a page shows it. */
export interface HumanAlphaView {
  /** "α 0.81", "too few labelled items to tell (3 items)" or "—" (not defined). */
  label: string;
  /** On the element showing `label`; null when no α number is shown. */
  attrs: AlphaAttrs | null;
  /** "[0.74–0.87]" beside the number; null without a number or an interval. */
  interval: string | null;
  /** Why there is no number, for the cell's title. */
  title: string;
}

const tooFewItems = (items: number) => `too few labelled items to tell (${plural(items, 'item')})`;

/**
 * α over `items` items; below ALPHA_MIN_UNITS it is not printed (over a handful of items it
 * swings between 0 and 1 whatever was said, lib/core/judging/alpha.ts).
 */
function humanAlpha(a: IntervalFigure, items: number, scope: FigureScope): HumanAlphaView {
  if (items < ALPHA_MIN_UNITS) return { label: tooFewItems(items), attrs: null, interval: null, title: `α is shown from ${plural(ALPHA_MIN_UNITS, 'labelled item')}` };
  if (a.value === null) return { label: '—', attrs: null, interval: null, title: 'α is not defined here: every value was the same' };
  const value = two(a.value);
  return {
    label: `α ${value}`,
    attrs: { ...figureAttrs('alpha', scope, value), 'data-units': String(items) },
    interval: bracket(a.low, a.high),
    title: `Krippendorff’s α over ${plural(items, 'item')}, with its bootstrap interval over items`,
  };
}

/** The level the figures are at: a blueprint, or every blueprint together. */
const levelScope = (blueprintId: string | null): FigureScope => (blueprintId === null ? { board: 'all' } : { blueprint: blueprintId });

/** A judge id is its model id, with `#approach` when the judge reads the question another way. */
function judgeLabel(rater: string, names: ReadonlyMap<string, string>): string {
  const [model, approach] = rater.split('#') as [string, string | undefined];
  return `${modelShortName(model, names.get(model))}${approach && approach !== 'standard' ? ` (${approach})` : ''}`;
}

export interface CalibrationRowView {
  key: string;
  kind: 'panel' | 'judge';
  label: string;
  /** The judge's full id under its name; null for the panel. */
  detail: string | null;
  items: string;
  labels: string;
  alpha: HumanAlphaView;
  /** "0.74 [0.61–0.85]", or "—" over too few items. */
  kappa: string;
  /** "+0.06 [+0.01–+0.11]": judge minus people, positive when the judge is more generous. */
  bias: string;
  biasTitle: string;
  /** Expected calibration error, "0.04". */
  ece: string;
  eceTitle: string;
}

export interface CalibrationPointView {
  key: string;
  /** The judge's mean value in the bin and people's mean there, as percentages of the axes (0–100). */
  x: number;
  y: number;
  /** The point's radius in the chart's units: larger for bins with more items. */
  r: number;
  /** "judge 0.85, people 0.78, 12 items". */
  label: string;
}

export interface CalibrationCurveView {
  title: string;
  /** The whole curve in words, for a screen reader. */
  ariaLabel: string;
  points: CalibrationPointView[];
  /** The same numbers as a table: non-empty bins only. */
  rows: { bin: string; items: string; judge: string; people: string }[];
}

export interface PpiRowView {
  modelId: string;
  label: string;
  href: string;
  /** "72.4" and "68.1–76.0": the mean of the judges' values on the judged points. */
  judgeOnly: { score: string; interval: string | null; figures: { score: FigureAttrs; interval: FigureAttrs | null } };
  /** Null when there are too few labels to correct for the judge: `reason` says why. */
  predictionPowered: { score: string; interval: string | null; figures: { score: FigureAttrs; interval: FigureAttrs | null } } | null;
  /** People minus judge on the labelled points, in points out of 100: "−3.1". */
  rectifier: string | null;
  reason: string | null;
  /** "24 of 300 judged points labelled". */
  basis: string;
}

export type CalibrationView =
  | { kind: 'empty'; title: string; sentence: string; reviewHref: string }
  | {
      kind: 'figures';
      title: string;
      /** "Judges checked against 140 human labels: α 0.81 [0.74–0.87]"; the lead is the words before the colon. */
      headline: string;
      headlineLead: string;
      headlineAlpha: HumanAlphaView;
      /** "140 labels on 60 items from 4 reviewers". */
      basis: string;
      rows: CalibrationRowView[];
      people: { label: string; items: string; alpha: HumanAlphaView; note: string };
      curve: CalibrationCurveView | null;
      models: PpiRowView[];
      notes: { columns: string; judgeOnly: string; predictionPowered: string };
    };

const TITLE = 'Judges checked against people';

function calibrationRow(row: CalibrationFigures['rows'][number], scope: FigureScope, names: ReadonlyMap<string, string>): CalibrationRowView {
  const enough = row.items >= ALPHA_MIN_UNITS;
  const kappa = enough && row.kappa.value !== null ? [two(row.kappa.value), bracket(row.kappa.low, row.kappa.high)].filter(Boolean).join(' ') : '—';
  const metric = row.kind === 'panel' ? 'human-vs-panel' : `human-vs-judge:${row.rater}`;
  const who = row.kind === 'panel' ? 'the panel' : 'this judge';
  return {
    key: row.rater,
    kind: row.kind,
    label: row.kind === 'panel' ? 'Panel' : judgeLabel(row.rater, names),
    detail: row.kind === 'panel' ? null : row.rater,
    items: plural(row.items, 'item'),
    labels: plural(row.labels, 'label'),
    alpha: humanAlpha(row.alpha, row.items, { ...scope, metric }),
    kappa,
    bias: row.bias ? `${formatSigned(row.bias.mean)} ${bracket(row.bias.low, row.bias.high, formatSigned)}` : '—',
    biasTitle: row.bias
      ? `${who} minus people’s mean value, over ${plural(row.bias.n, 'item')}: ${row.bias.low > 0 ? `${who} is more generous than people` : row.bias.high < 0 ? `${who} is stricter than people` : 'no clear lean either way'}`
      : 'too few items to tell the judge’s lean',
    ece: row.calibration.ece === null ? '—' : two(row.calibration.ece),
    eceTitle: row.calibration.ece === null ? 'no item to bin' : `the mean gap between ${who}’s value and people’s, bin by bin, over ${plural(row.calibration.n, 'item')} (0 = perfectly calibrated)`,
  };
}

const pct = (x: number) => roundHalfUp(Math.min(1, Math.max(0, x)) * 100, 1);

/** The panel's calibration as points on a square: the judge's value across, people's mean up. */
export function calibrationCurve(calibration: CalibrationFigures['rows'][number]['calibration'], rater = 'the panel'): CalibrationCurveView | null {
  const bins = calibration.bins.filter((b) => b.n > 0 && b.meanProbability !== null && b.observed !== null);
  if (bins.length === 0) return null;
  const most = Math.max(...bins.map((b) => b.n));
  const points = bins.map((b) => ({
    key: `${b.from}-${b.to}`,
    x: pct(b.meanProbability!),
    y: pct(b.observed!),
    // area in proportion to the items: radius by the square root, between 1.5 and 5 units of 100
    r: roundHalfUp(1.5 + 3.5 * Math.sqrt(b.n / most), 1),
    label: `judge ${two(b.meanProbability!)}, people ${two(b.observed!)}, ${plural(b.n, 'item')}`,
  }));
  const ece = calibration.ece === null ? '' : `, expected calibration error ${two(calibration.ece)}`;
  return {
    title: `Calibration of ${rater}: people’s mean value against the judge’s value, in ${plural(bins.length, 'bin')} with items${ece}. On the diagonal, the judge’s value is what people said.`,
    ariaLabel: `Calibration of ${rater} over ${plural(calibration.n, 'item')}${ece}: ${points.map((p) => p.label).join('; ')}.`,
    points,
    rows: bins.map((b) => ({ bin: `${b.from.toFixed(1)}–${b.to.toFixed(1)}`, items: plural(b.n, 'item'), judge: two(b.meanProbability!), people: two(b.observed!) })),
  };
}

function ppiRow(m: ModelPpi, names: ReadonlyMap<string, string>): PpiRowView {
  const { ppi } = m;
  const scope = { run: m.runId, model: m.modelId };
  const shown = (metric: string, value: number, low: number | null, high: number | null) => {
    const score = formatScore(value);
    const interval = formatInterval(low, high);
    return { score, interval, figures: { score: figureAttrs('score', { ...scope, metric }, score), interval: interval ? figureAttrs('interval', { ...scope, metric }, interval) : null } };
  };
  return {
    modelId: m.modelId,
    label: modelShortName(m.modelId, names.get(m.modelId)),
    href: href.runModel(m.runId, m.modelId),
    judgeOnly: shown('judge-only', ppi.judgeMean, ppi.judgeLow, ppi.judgeHigh),
    predictionPowered: ppi.estimate === null ? null : shown('prediction-powered', ppi.estimate, ppi.low, ppi.high),
    rectifier: ppi.rectifier === null ? null : formatDelta(ppi.rectifier),
    reason: ppi.estimate === null ? (ppi.reason ?? 'too few labels to correct for the judge') : null,
    basis: `${formatCount(ppi.labelled)} of ${plural(ppi.items, 'judged point')} labelled`,
  };
}

/** Higher prediction-powered mean first, those without one after; then the judge-only mean, then the name. */
function byScore(names: ReadonlyMap<string, string>) {
  return (a: ModelPpi, b: ModelPpi): number => {
    const [pa, pb] = [a.ppi.estimate, b.ppi.estimate];
    if (pa !== pb) return pa === null ? 1 : pb === null ? -1 : pb - pa;
    return b.ppi.judgeMean - a.ppi.judgeMean || modelShortName(a.modelId, names.get(a.modelId)).localeCompare(modelShortName(b.modelId, names.get(b.modelId)));
  };
}

/**
 * The calibration section: `figures` for a blueprint (or every blueprint together), null when no
 * one has labelled a verdict yet. `names`: display names of the graded models, where known.
 */
export function calibrationView(figures: CalibrationFigures | null, names: ReadonlyMap<string, string> = new Map()): CalibrationView {
  if (figures === null || figures.labels === 0) {
    return {
      kind: 'empty',
      title: TITLE,
      sentence: 'No one has labelled a judged verdict here yet, so the judges have not been checked against people. Reviewers answer the judges’ own questions on a sample of replies, without seeing the judges’ answers or the model’s name; a maintainer grants the reviewer role.',
      reviewHref: REVIEW_PATH,
    };
  }
  const scope = levelScope(figures.blueprintId);
  const ordered = [...figures.rows].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'panel' ? -1 : 1));
  const rows = ordered.map((r) => calibrationRow(r, scope, names));
  const panel = ordered.find((r) => r.kind === 'panel') ?? null;
  const labels = panel?.labels ?? figures.labels;
  const headlineLead = `Judges checked against ${plural(labels, 'human label')}`;
  const headlineAlpha = panel ? rows[0]!.alpha : { label: 'no labelled item has the panel’s answer', attrs: null, interval: null, title: '' };
  const models = [...figures.models].sort(byScore(names)).map((m) => ppiRow(m, names));
  return {
    kind: 'figures',
    title: TITLE,
    headline: `${headlineLead}: ${headlineAlpha.label}${headlineAlpha.interval ? ` ${headlineAlpha.interval}` : ''}`,
    headlineLead,
    headlineAlpha,
    basis: `${plural(figures.labels, 'label')} on ${plural(figures.items, 'item')} from ${plural(figures.reviewers, 'reviewer')}; intervals at ${roundHalfUp(figures.level * 100, 0)}% from ${plural(figures.resamples, 'bootstrap resample')} over items.`,
    rows,
    people: {
      label: 'People with each other',
      items: plural(figures.humanAlpha.items, 'item'),
      alpha: humanAlpha(figures.humanAlpha, figures.humanAlpha.items, { ...scope, metric: 'human-vs-human' }),
      note: 'People’s agreement with each other, on the items two or more of them labelled: the ceiling a judge is read against (a judge that agrees with people as well as they agree with each other can do no better).',
    },
    curve: panel ? calibrationCurve(panel.calibration) : null,
    models,
    notes: {
      columns:
        'α: Krippendorff’s α between the rater’s value and people’s mean value on the same items (1 = full agreement, 0 = no better than chance). Weighted κ: Cohen’s κ between the rater’s most likely answer and each person’s answer, near misses counting partly on ordered scales. Bias: the rater’s value minus people’s, on a 0–1 scale; positive means the judge is more generous than people. ECE: the expected calibration error, the mean gap between the judge’s value and what people said, bin by bin.',
      judgeOnly: 'Judge-only: the mean of the judges’ values on the judged points.',
      predictionPowered: 'Prediction-powered: corrected by people’s labels; the interval includes the judge’s error (Angelopoulos et al., 2023). The correction is people minus judge on the labelled points, weighted by how likely each was to be drawn.',
    },
  };
}

export interface JudgedCheckLineView {
  /** "judges checked against 140 human labels: α 0.81 [0.74–0.87]". */
  text: string;
  /** "judges checked against 140 human labels": the words before the colon, the link. */
  lead: string;
  alpha: HumanAlphaView;
  /** The calibration section on the blueprint page (the methodology page for every blueprint together). */
  href: string;
}

/** The one line beside judged numbers; null when no one has labelled a verdict. */
export function judgedCheckLine(figures: CalibrationFigures | null): JudgedCheckLineView | null {
  if (figures === null || figures.labels === 0) return null;
  const panel = figures.rows.find((r) => r.kind === 'panel');
  if (!panel) return null;
  const lead = `judges checked against ${plural(panel.labels, 'human label')}`;
  const alpha = humanAlpha(panel.alpha, panel.items, { ...levelScope(figures.blueprintId), metric: 'human-vs-panel' });
  return {
    text: `${lead}: ${alpha.label}${alpha.interval ? ` ${alpha.interval}` : ''}`,
    lead,
    alpha,
    href: `${figures.blueprintId === null ? METHODOLOGY_PATH : href.blueprint(figures.blueprintId)}#${HUMAN_CALIBRATION_ANCHOR}`,
  };
}

export interface PairwiseRowView {
  modelId: string;
  label: string;
  href: string;
  rank: number;
  rankFigure: FigureAttrs;
  bandLabel: string;
  tied: boolean;
  bandFigure: FigureAttrs;
  /** Log-strength, "+0.42", and its interval "[+0.10–+0.80]". */
  strength: string;
  interval: string;
  comparisons: string;
}

export type PairwiseBoardView =
  | { kind: 'empty'; title: string; sentence: string; reviewHref: string }
  | {
      kind: 'board';
      title: string;
      rows: PairwiseRowView[];
      /** "Spearman ρ 0.83, Kendall τ 0.67 on 5 models both rank", or why there is none. */
      correlation: string;
      /** "212 preferences from 6 reviewers, on pairs from 3 blueprints:". */
      counts: string;
      blueprints: { id: string; href: string }[];
      explanation: string;
    };

const PAIRWISE_TITLE = 'People’s preferences';
const BOARD = 'pairs';

function correlationSentence(c: PairwiseFigures['correlation']): string {
  if (c === null || c.models < 3) {
    const n = c === null ? 'Fewer than 3 models are' : `Only ${plural(c.models, 'model is', 'models are')}`;
    return `${n} ranked both here and on the rubric leaderboard: the two orders are compared from 3 models.`;
  }
  if (c.spearman === null || c.kendall === null) return `The two orders cannot be compared on the ${plural(c.models, 'model')} both rank: one of them puts every model level.`;
  return `Against the rubric leaderboard: Spearman ρ ${two(c.spearman)}, Kendall τ ${two(c.kendall)} on ${plural(c.models, 'model')} both rank.`;
}

/** People's Bradley–Terry ranking from pairs of anonymous replies; null figures: no preference yet. */
export function pairwiseBoardView(figures: PairwiseFigures | null, names: ReadonlyMap<string, string> = new Map()): PairwiseBoardView {
  if (figures === null || figures.ranking.models.length === 0) {
    return {
      kind: 'empty',
      title: PAIRWISE_TITLE,
      sentence: 'No one has compared two replies yet. Reviewers are shown one prompt and two anonymous replies from different models and say which is better, or that they are as good; the ranking is made from those preferences.',
      reviewHref: REVIEW_PATH,
    };
  }
  const { ranking } = figures;
  const rows = [...ranking.models]
    .sort((a, b) => a.rank - b.rank)
    .map((m) => {
      const scope = { board: BOARD, model: m.model };
      const band = bandLabel(m.band);
      return {
        modelId: m.model,
        label: modelShortName(m.model, names.get(m.model)),
        href: href.model(m.model),
        rank: m.rank,
        rankFigure: figureAttrs('rank', scope, String(m.rank)),
        bandLabel: band,
        tied: m.band.best !== m.band.worst,
        bandFigure: figureAttrs('band', scope, band),
        strength: formatSigned(m.strength),
        interval: bracket(m.low, m.high, formatSigned)!,
        comparisons: plural(m.comparisons, 'comparison'),
      };
    });
  return {
    kind: 'board',
    title: PAIRWISE_TITLE,
    rows,
    correlation: correlationSentence(figures.correlation),
    counts: `${plural(figures.labels, 'preference')} from ${plural(figures.reviewers, 'reviewer')}, on pairs from ${plural(figures.blueprints.length, 'blueprint')}:`,
    blueprints: figures.blueprints.map((id) => ({ id, href: href.blueprint(id) })),
    explanation: `The ranking is a Bradley–Terry model: each model has a strength, and the chance that people prefer one reply to another is its strength over the sum of both; a tie counts half a win to each. Strength is shown as a logarithm, 0 for the average model (a lead of 1 means people prefer it about 73% of the time), with its ${roundHalfUp(ranking.level * 100, 0)}% interval from ${plural(ranking.resamples, 'bootstrap resample')} of the ${plural(ranking.comparisons, 'comparison')}. Band: the ranks a model could hold once chance is allowed for; every pair of models is compared and Holm-corrected at 5%, and models not told apart share a band, as on the rubric leaderboard.`,
  };
}

/** What the admin page's review section reads: the query's own result type. */
export type ReviewOverviewInput = ReviewOverview;

export interface AdminReviewView {
  blueprints: Array<{
    blueprintId: string;
    title: string;
    href: string;
    /** Verdicts drawn for review, and out of how many judged verdicts of the runs drawn from. */
    items: string;
    itemsOf: string;
    /** Items with as many live labels as wanted, and their share of the items drawn. */
    complete: string;
    coverage: string;
    labels: string;
    flags: string;
    pairs: string;
    pairsComplete: string;
    pairLabels: string;
  }>;
  reviewers: Array<{
    login: string;
    /** "all blueprints" for '*', else the blueprint ids. */
    scopes: string;
    labels: string;
    pairLabels: string;
    today: string;
    last7Days: string;
    lastActive: string;
    /** The exact time, for the cell's title; null when never active. */
    lastActiveAt: string | null;
    /** The share of the reviewer's labels another reviewer matched on the same item: "82%" or "—". */
    agreement: string;
    removed: string;
  }>;
  /** Suggestions for the blueprint fields: the blueprints with a review queue. */
  blueprintIds: string[];
  /** The draw form's starting values (the queue's own defaults). */
  drawDefaults: { expectedLabels: number; overlapItems: number; count: number };
  actions: { grants: string; draws: string; removeLabels: string };
}

const ALL_SCOPE = '*';
/**
 * Items of a draw that go to two reviewers or more (the review queue's default): people's α with
 * each other, the ceiling judges are read against, is shown only from ALPHA_MIN_UNITS such items.
 */
const DRAW_OVERLAP_ITEMS = 100;
/** Pairs a draw takes when the admin does not say: enough for a first ranking of a few close models. */
const DRAW_PAIR_COUNT = 20;

/** The admin page's "Human review" section: blueprints by title, reviewers most recently active first. */
export function adminReviewView(overview: ReviewOverviewInput, now: Date): AdminReviewView {
  const blueprints = [...overview.blueprints]
    .sort((a, b) => a.title.localeCompare(b.title) || a.blueprintId.localeCompare(b.blueprintId))
    .map((b) => ({
      blueprintId: b.blueprintId,
      title: b.title,
      href: href.blueprint(b.blueprintId),
      items: formatCount(b.items),
      itemsOf: `of ${plural(b.judgedVerdicts, 'judged verdict')}`,
      complete: formatCount(b.itemsComplete),
      coverage: b.items === 0 ? '—' : formatPercent(b.itemsComplete / b.items),
      labels: formatCount(b.labels),
      flags: formatCount(b.flags),
      pairs: formatCount(b.pairs),
      pairsComplete: `${formatCount(b.pairsComplete)} complete`,
      pairLabels: formatCount(b.pairLabels),
    }));
  const reviewers = [...overview.reviewers]
    .sort((a, b) => (b.lastAt?.getTime() ?? -Infinity) - (a.lastAt?.getTime() ?? -Infinity) || a.login.localeCompare(b.login))
    .map((r) => ({
      login: r.login,
      scopes: r.scopes.length === 0 ? 'no grant' : [...r.scopes].sort().map((s) => (s === ALL_SCOPE ? 'all blueprints' : s)).join(', '),
      labels: formatCount(r.labels),
      pairLabels: formatCount(r.pairLabels),
      today: formatCount(r.today),
      last7Days: formatCount(r.last7Days),
      lastActive: r.lastAt ? ago(r.lastAt, now) : 'never',
      lastActiveAt: r.lastAt ? formatDateTime(r.lastAt) : null,
      agreement: r.agreement === null ? '—' : formatPercent(r.agreement),
      removed: formatCount(r.removed),
    }));
  return {
    blueprints,
    reviewers,
    blueprintIds: blueprints.map((b) => b.blueprintId),
    drawDefaults: { expectedLabels: DEFAULT_REVIEW_DESIGN.expectedLabels, overlapItems: DRAW_OVERLAP_ITEMS, count: DRAW_PAIR_COUNT },
    actions: { grants: '/api/admin/review/grants', draws: '/api/admin/review/draws', removeLabels: '/api/admin/review/remove-labels' },
  };
}
