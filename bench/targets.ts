/**
 * The figures a bench promises against a target (issue 15: "`npm run bench` prints, in one
 * run, each target as a ratio"). A bench module records each one here as it measures it;
 * `bench/run.ts` prints them all as one table at the end, so a reader of one run sees every
 * target, its measured value and whether it is met, without scrolling through each module.
 */
export interface Target {
  /** What is measured, e.g. "loader vs plain js-yaml parse (corpus)". */
  name: string;
  /** The measured figure. */
  value: number;
  /** How the figure reads, e.g. "×", "ms/call", "MB". */
  unit: string;
  /** The goal, stated as a comparison, e.g. "≤ 1.1". */
  goal: string;
  /** Whether the measured value meets the goal. */
  met: boolean;
  /** Anything a reader needs to read the figure (conditions, sample size). */
  note?: string;
}

const recorded: Target[] = [];

/** Records a measured figure against its goal; `atMost` or `atLeast` states the goal. */
export function reportTarget(t: { name: string; value: number; unit: string; note?: string } & ({ atMost: number } | { atLeast: number })): void {
  const goal = 'atMost' in t ? `≤ ${t.atMost}` : `≥ ${t.atLeast}`;
  const met = 'atMost' in t ? t.value <= t.atMost : t.value >= t.atLeast;
  recorded.push({ name: t.name, value: t.value, unit: t.unit, goal, met, note: t.note });
}

/** Records a figure that has no goal of its own but belongs in the summary (e.g. judge calls per reply). */
export function reportFigure(t: { name: string; value: number; unit: string; note?: string }): void {
  recorded.push({ ...t, goal: '—', met: true });
}

export function recordedTargets(): readonly Target[] {
  return recorded;
}

/** The summary table printed at the end of `npm run bench`. */
export function formatTargets(targets: readonly Target[]): string {
  if (targets.length === 0) return '';
  const fmt = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2));
  // a figure without a goal has no verdict: its status column stays blank
  const rows = targets.map((t) => [t.goal === '—' ? '' : t.met ? 'met' : 'MISSED', t.name, `${fmt(t.value)} ${t.unit}`.trim(), t.goal, t.note ?? '']);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) => r.map((c, i) => (i < 4 ? c.padEnd(widths[i]!) : c)).join('  ').trimEnd());
  return ['Targets:', ...lines.map((l) => `  ${l}`)].join('\n');
}
