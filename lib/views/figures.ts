/**
 * Figure identities: every number a page shows that a reader could meet on another page (a
 * model's score and interval, its rank and band, a run's smallest detectable difference, a drift
 * difference, a retrieval status, judge agreement) carries an identity saying WHICH figure it is,
 * OF WHAT, AT WHICH LEVEL, and the value as shown. The page writes them as `data-figure` and
 * `data-value` attributes; the figure census (e2e/figure-census.ts) visits every page and fails
 * when one identity is shown with two values. Two pages that show the same figure must give it the
 * same identity; two different quantities (a tag board's interval across its blueprints, a
 * blueprint's own interval) must not share one, and their labels say which they are.
 */

/** What the figure is. */
export type FigureKind =
  /** A model's score (0–100), and its interval, as shown. */
  | 'score'
  | 'interval'
  /** A model's position: its rank on a board or in a run, and its tied band. */
  | 'rank'
  | 'band'
  /** The smallest difference a run can tell from chance (the planner's minimum detectable effect). */
  | 'mde'
  /** A model's change between two runs of a blueprint, and the newer run's score it ends at. */
  | 'difference'
  /** A retrieval model's pass / warn / fail against the blueprint's thresholds. */
  | 'status'
  /** Judge agreement (Krippendorff's α). */
  | 'alpha'
  /** Cost of a model on a run. */
  | 'cost';

/**
 * Where the figure belongs, most general first: `board` ('all' or 'tag:<tag>'), `blueprint`,
 * `run`, `from`/`to` (two runs), `model`, `prompt`, `metric`.
 */
export interface FigureScope {
  board?: string;
  blueprint?: string;
  run?: string;
  from?: string;
  to?: string;
  model?: string;
  prompt?: string;
  metric?: string;
}

const ORDER: readonly (keyof FigureScope)[] = ['board', 'blueprint', 'run', 'from', 'to', 'model', 'prompt', 'metric'];

/** "interval|run=r1|model=openai:gpt-4o": one string per figure, the same whichever page builds it. */
export function figureId(kind: FigureKind, scope: FigureScope): string {
  const parts = ORDER.flatMap((k) => (scope[k] === undefined ? [] : [`${k}=${scope[k]}`]));
  return [kind, ...parts].join('|');
}

/** The attributes a component spreads on the element that shows the figure. */
export interface FigureAttrs {
  'data-figure': string;
  'data-value': string;
}

/** `value`: the figure as the page shows it (its label), so the census compares what readers read. */
export function figureAttrs(kind: FigureKind, scope: FigureScope, value: string): FigureAttrs {
  return { 'data-figure': figureId(kind, scope), 'data-value': value.replace(/\s+/g, ' ').trim() };
}

/** One figure seen on a page, as the census collects it. */
export interface SeenFigure {
  id: string;
  value: string;
  page: string;
}

/** A figure shown with more than one value: each value and the pages that show it. */
export interface FigureConflict {
  id: string;
  values: { value: string; pages: string[] }[];
}

/** Every identity seen with two values or more (pages listed once per value, in the order seen). */
export function figureConflicts(seen: readonly SeenFigure[]): FigureConflict[] {
  const byId = new Map<string, Map<string, string[]>>();
  for (const s of seen) {
    const values = byId.get(s.id) ?? new Map<string, string[]>();
    byId.set(s.id, values);
    const pages = values.get(s.value) ?? [];
    values.set(s.value, pages);
    if (!pages.includes(s.page)) pages.push(s.page);
  }
  return [...byId.entries()]
    .filter(([, values]) => values.size > 1)
    .map(([id, values]) => ({ id, values: [...values.entries()].map(([value, pages]) => ({ value, pages })) }));
}
