/**
 * A two-model comparison as pages show it (the leaderboard, a blueprint, a model): the paired
 * comparison on the prompts both models were scored on (core `boardPairedComparison`: the
 * difference of their board scores restricted to those prompts, each shared blueprint weighted
 * equally, a paired t-test stratified by blueprint), wins/losses/ties with the sign test, and
 * the prompts whose scores differ most, each with deep links to both models' cells. Sealed
 * prompts count in the numbers but are never listed (their keys arrive hashed).
 */
import { boardPairedComparison, boardPlaceLabel, type Leaderboard, type PairedComparison } from '@/lib/core';
import type { Board, BoardPromptCell } from '@/lib/server/db/queries/leaderboard';
import { formatDelta, formatScore, modelShortName, plural, roundHalfUp } from './format';
import { href } from './urls';

export type CompareScope = { kind: 'board'; tag: string | null } | { kind: 'blueprint'; blueprintId: string };

export interface ModelChoice {
  modelId: string;
  label: string;
}

export interface DifferingPromptView {
  promptKey: string;
  blueprintTitle: string;
  scoreA: string;
  scoreB: string;
  diffLabel: string;
  hrefA: string;
  hrefB: string;
  /** The prompt page when both scores come from the same run (both replies side by side). */
  promptHref: string | null;
}

export interface ComparisonResultView {
  a: ModelChoice & { href: string; scoreLabel: string };
  b: ModelChoice & { href: string; scoreLabel: string };
  /** "+4.2" points, A − B. */
  diffLabel: string;
  intervalLabel: string | null;
  pLabel: string;
  signTestLabel: string;
  correlationLabel: string;
  n: number;
  nLabel: string;
  blueprintsLabel: string;
  wins: number;
  losses: number;
  ties: number;
  /**
   * One sentence: who is ahead and whether it can be told apart from chance at 5%, for this pair
   * alone and, on a leaderboard, after the board's correction for all the pairs it compares.
   */
  verdict: string;
  /** Told apart: for this pair alone, and (on a board) after the board's correction too. */
  significant: boolean;
  /** On a leaderboard: the two models' bands and the comparison's adjusted p (null off a board, or a model not ranked there). */
  family: { adjustedPLabel: string; pairs: number; separated: boolean; bandA: string; bandB: string } | null;
  differing: DifferingPromptView[];
  /** How many of the shared prompts are sealed (counted, not listed). */
  sealedCount: number;
  /** "1 sealed prompt". */
  sealedLabel: string;
  comparison: PairedComparison;
}

export interface CompareView {
  title: string;
  /** Where the form submits (the page it is on) and its fixed fields. */
  action: string;
  hidden: Record<string, string>;
  /** The parameter names of the two selects on this page. */
  fieldA: string;
  fieldB: string;
  choices: ModelChoice[];
  selectedA: string | null;
  selectedB: string | null;
  /** Why there is no result (nothing chosen, the same model twice, no shared prompt). */
  message: string | null;
  result: ComparisonResultView | null;
  /** A one-line "how to read this" explanation, for the methodology sentences (judges engineer). */
  caption: string;
}

export const DIFFERING_PROMPTS = 10;

/** "p = 0.031", "p < 0.001". */
export function formatP(p: number | null): string {
  if (p === null) return '—';
  if (p < 0.001) return 'p < 0.001';
  return `p = ${p < 0.01 ? p.toFixed(3) : roundHalfUp(p, 2).toFixed(2)}`;
}

const CAPTION =
  'Paired on the prompts both models were scored on: the difference is in points (0–100), A − B; the 95% interval and p-value come from a paired t-test on the per-prompt differences (stratified by blueprint), the sign test counts only wins and losses.';

function scopeOf(scope: CompareScope, board: Board): { rows: Board['rows']; prompts: BoardPromptCell[] } {
  if (scope.kind === 'blueprint') {
    return { rows: board.rows.filter((r) => r.blueprintId === scope.blueprintId), prompts: board.prompts.filter((p) => p.blueprintId === scope.blueprintId) };
  }
  if (!scope.tag) return board;
  const ids = new Set(board.rows.filter((r) => r.tags.includes(scope.tag as string)).map((r) => r.blueprintId));
  return { rows: board.rows.filter((r) => ids.has(r.blueprintId)), prompts: board.prompts.filter((p) => ids.has(p.blueprintId)) };
}

/**
 * The comparison of `a` and `b` in `scope`, from the board's rows and prompt scores (`getBoard`).
 * `form` says where the selects submit and under which names.
 */
export function compareView(
  board: Board,
  names: ReadonlyMap<string, string>,
  scope: CompareScope,
  picked: { a?: string | null; b?: string | null },
  form: { action: string; hidden?: Record<string, string>; fieldA?: string; fieldB?: string; title?: string },
  /** The leaderboard the pair sits on (leaderboard() as the board page makes it), for what its bands say of the pair. */
  ranking?: Leaderboard | null,
): CompareView {
  const { rows, prompts } = scopeOf(scope, board);
  const scored = rows.filter((r) => r.score !== null);
  const ids = [...new Set(scored.map((r) => r.modelId))].sort();
  const label = (id: string) => modelShortName(id, names.get(id));
  const choices = ids.map((modelId) => ({ modelId, label: label(modelId) })).sort((x, y) => x.label.localeCompare(y.label) || x.modelId.localeCompare(y.modelId));
  const a = picked.a && ids.includes(picked.a) ? picked.a : null;
  const b = picked.b && ids.includes(picked.b) ? picked.b : null;
  const base = {
    title: form.title ?? 'Compare two models',
    action: form.action,
    hidden: form.hidden ?? {},
    fieldA: form.fieldA ?? 'a',
    fieldB: form.fieldB ?? 'b',
    choices,
    selectedA: a,
    selectedB: b,
    caption: CAPTION,
  };
  const unknown = [picked.a, picked.b].filter((m): m is string => !!m && !ids.includes(m));
  if (unknown.length) return { ...base, message: `No score here for ${unknown.join(' and ')}: pick models from the list.`, result: null };
  if (!a || !b) return { ...base, message: 'Pick two models to compare them on the prompts they share.', result: null };
  if (a === b) return { ...base, message: 'Pick two different models.', result: null };

  const mineA = prompts.filter((p) => p.modelId === a);
  const mineB = prompts.filter((p) => p.modelId === b);
  const c = boardPairedComparison(mineA, mineB);
  if (c.n === 0) return { ...base, message: `${label(a)} and ${label(b)} share no scored prompt here.`, result: null };

  const titles = new Map(rows.map((r) => [r.blueprintId, r.blueprintTitle]));
  const byKey = new Map(mineB.map((p) => [`${p.blueprintId}\u0000${p.promptKey}`, p]));
  const pairs = mineA.flatMap((pa) => {
    const pb = byKey.get(`${pa.blueprintId}\u0000${pa.promptKey}`);
    return pb && pa.score !== null && pb.score !== null ? [{ pa, pb, d: pa.score - pb.score }] : [];
  });
  const sealedCount = pairs.filter((p) => p.pa.sealed).length;
  const differing = pairs
    .filter((p) => !p.pa.sealed && Math.abs(p.d) > 1e-9)
    .sort((x, y) => Math.abs(y.d) - Math.abs(x.d) || x.pa.promptKey.localeCompare(y.pa.promptKey))
    .slice(0, DIFFERING_PROMPTS)
    .map(({ pa, pb, d }) => ({
      promptKey: pa.promptKey,
      blueprintTitle: titles.get(pa.blueprintId) ?? pa.blueprintId,
      scoreA: formatScore(pa.score),
      scoreB: formatScore(pb.score),
      diffLabel: formatDelta(d),
      hrefA: href.cell(pa.runId, pa.promptKey, a),
      hrefB: href.cell(pb.runId, pb.promptKey, b),
      promptHref: pa.runId === pb.runId ? href.prompt(pa.runId, pa.promptKey) : null,
    }));
  const blueprints = new Set(pairs.map((p) => p.pa.blueprintId)).size;
  const significant = c.tTestP !== null && c.tTestP < 0.05;
  const ahead = (c.meanDiff ?? 0) >= 0 ? label(a) : label(b);
  const behind = (c.meanDiff ?? 0) >= 0 ? label(b) : label(a);
  const gap = formatDelta(Math.abs(c.meanDiff ?? 0)).replace(/^[+±−]/, '');
  const alone =
    c.tTestP === null
      ? `${plural(c.n, 'shared prompt')}: too few to test.`
      : significant
        ? `${ahead} is ahead of ${behind} by ${gap} points on the ${plural(c.n, 'prompt')} they share: a difference chance alone would rarely produce (${formatP(c.tTestP)}${ranking ? ', this pair tested alone' : ''}).`
        : `${label(a)} and ${label(b)} cannot be told apart on the ${plural(c.n, 'prompt')} they share (a gap of ${gap} points, ${formatP(c.tTestP)}).`;
  const family = ranking ? familyOf(ranking, a, b) : null;
  // the board tests every pair of its models at once and corrects for it (Holm): a pair apart
  // alone may still share a band there, and the reader is told both in one place
  const inFamily =
    family === null || c.tTestP === null
      ? ''
      : family.separated
        ? ` The leaderboard, which corrects for all ${family.pairs} pairs it compares (Holm), separates them too (adjusted ${family.adjustedPLabel}): ${label(a)} ${family.bandA}, ${label(b)} ${family.bandB}.`
        : significant
          ? ` But the leaderboard corrects for all ${family.pairs} pairs it compares (Holm), and after that correction the gap is not significant (adjusted ${family.adjustedPLabel}): that is why it gives ${label(a)} ${family.bandA} and ${label(b)} ${family.bandB}.`
          : ` The leaderboard agrees: ${label(a)} ${family.bandA}, ${label(b)} ${family.bandB}.`;
  const verdict = `${alone}${inFamily}`;
  return {
    ...base,
    message: null,
    result: {
      a: { modelId: a, label: label(a), href: href.model(a), scoreLabel: formatScore(c.meanA) },
      b: { modelId: b, label: label(b), href: href.model(b), scoreLabel: formatScore(c.meanB) },
      diffLabel: formatDelta(c.meanDiff),
      intervalLabel: c.tInterval ? `${formatDelta(c.tInterval.low)} to ${formatDelta(c.tInterval.high)}` : null,
      pLabel: formatP(c.tTestP),
      signTestLabel: formatP(c.signTestP),
      correlationLabel: c.correlation === null ? '—' : c.correlation.toFixed(2),
      n: c.n,
      nLabel: plural(c.n, 'shared prompt'),
      blueprintsLabel: plural(blueprints, 'blueprint'),
      wins: c.wins,
      losses: c.losses,
      ties: c.ties,
      verdict,
      significant: significant && (family === null || family.separated),
      family,
      differing,
      sealedCount,
      sealedLabel: plural(sealedCount, 'sealed prompt'),
      comparison: c,
    },
  };
}

/** What a board's bands say of a pair: their Holm-adjusted p and each model's band; null when either model is not ranked there. */
function familyOf(board: Leaderboard, a: string, b: string): ComparisonResultView['family'] {
  const ia = board.ranked.findIndex((r) => r.modelId === a);
  const ib = board.ranked.findIndex((r) => r.modelId === b);
  if (ia < 0 || ib < 0 || !board.pairs) return null;
  const pair = board.pairs.find((t) => (t.i === ia && t.j === ib) || (t.i === ib && t.j === ia));
  if (!pair || pair.adjustedP === null) return null;
  return {
    adjustedPLabel: formatP(pair.adjustedP),
    pairs: board.pairs.filter((t) => t.adjustedP !== null).length,
    separated: pair.separated,
    bandA: boardPlaceLabel(board.ranked[ia]!),
    bandB: boardPlaceLabel(board.ranked[ib]!),
  };
}

/** The compare page's address: two models on a board (overall or a tag). */
export function compareHref(a: string, b: string, tag?: string | null): string {
  const q = new URLSearchParams({ a, b });
  if (tag) q.set('tag', tag);
  return `/compare?${q.toString()}`;
}
