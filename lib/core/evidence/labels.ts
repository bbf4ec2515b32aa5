/**
 * How a stored point reads on a page: plain text, never a JSON rendering (`matches("\\b4")`
 * shows its regex once-escaped, as written), a `should_not` point as "must not" with the
 * direction of its score, a `correct:` tree as its assertions, and a judged point's labels in
 * the question's own order (score levels worst to best, choice options as written, the
 * default scale absent → fully present).
 */
import type { Assertion, CorrectNode } from '../correct/schema';
import { JUDGE_SCALE } from '../judging/scale';
import { questionLabels } from '../judging/values';
import type { StoredPoint } from './schemas';

/** A value inside a label: strings as they are, lists item by item, anything else as compact JSON. */
function argText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  if (Array.isArray(v)) return v.map((x) => (typeof x === 'string' ? `“${x}”` : argText(x))).join(', ');
  return JSON.stringify(v);
}

function assertionText(a: Assertion): string {
  const at = 'path' in a && a.path ? a.path : '$.content';
  switch (a.type) {
    case 'jsonpath_equals':
    case 'equals':
      return `${at} = ${JSON.stringify(a.value)}`;
    case 'jsonpath_regex':
    case 'regex':
      return `${at} matches /${a.pattern}/${a.flags ?? ''}`;
    case 'jsonpath_exists':
      return `${at} exists`;
    case 'jsonpath_not_exists':
      return `${at} does not exist`;
    case 'jsonpath_contains':
    case 'contains':
      return `${at} contains ${JSON.stringify(a.value)}`;
  }
}

/** A `correct:` tree in words: `any of (get_weather_call: all of (…))`. */
export function describeCheck(node: CorrectNode): string {
  const named = (name: string | undefined, s: string) => (name ? `${name}: ${s}` : s);
  if ('any' in node) return named(node.name, `any of (${node.any.map(describeCheck).join('; ')})`);
  if ('all' in node) return named(node.name, `all of (${node.all.map(describeCheck).join('; ')})`);
  if ('not' in node) return named(node.name, `not (${describeCheck(node.not)})`);
  if ('assertions' in node) return named(node.name, node.assertions.length === 1 ? assertionText(node.assertions[0]!) : `all of (${node.assertions.map(assertionText).join('; ')})`);
  return assertionText(node);
}

/** The function as authored: a `should_not` function is stored as its `not_` form, shown under "must not" without it. */
export function functionName(point: Extract<StoredPoint, { kind: 'function' }>): string {
  return point.source === 'should_not' && point.fn.startsWith('not_') ? point.fn.slice('not_'.length) : point.fn;
}

/** The point's label: its criterion in words (the "must not" is shown beside it, see `pointDirection`). */
export function pointLabel(point: StoredPoint): string {
  switch (point.kind) {
    case 'text':
      return point.text;
    case 'question':
      return point.question.type === 'noul' ? point.question.statement : point.question.question;
    case 'correct':
      return `Structured check: ${describeCheck(point.check)}`;
    case 'function': {
      const name = functionName(point);
      if (name === 'js') return '$js check (JavaScript over the reply)';
      return point.args === undefined ? `$${name}` : `$${name}: ${argText(point.args)}`;
    }
    case 'criterion':
      return point.text;
  }
}

/** The code of a `$js` point, shown as code beside its label; null for any other point. */
export function pointCode(point: StoredPoint): string | null {
  return point.kind === 'function' && point.fn.replace(/^not_/, '') === 'js' && typeof point.args === 'string' ? point.args : null;
}

/** What a `should_not` point's score means; null for an ordinary point. */
export function pointDirection(point: Pick<StoredPoint, 'source'>): string | null {
  return point.source === 'should_not' ? 'must not: the score is 1 − how present it is, so 100 means it is absent and 0 that the reply does it' : null;
}

/** The labels a judged point's distribution is keyed by, in the question's order; null for an unjudged point. */
export function pointLabels(point: StoredPoint): string[] | null {
  if (point.kind === 'text') return [...JUDGE_SCALE];
  if (point.kind !== 'question') return null;
  return point.labels ?? questionLabels(point.question);
}

/** A label as a reader says it: `CLASS_MAJORLY_PRESENT` → "Majorly present", `left_it_out` → "left it out". */
export function labelName(label: string): string {
  if (label.startsWith('CLASS_')) {
    const words = label.slice('CLASS_'.length).toLowerCase().replace(/_/g, ' ');
    return words.charAt(0).toUpperCase() + words.slice(1);
  }
  return label.replace(/_/g, ' ');
}

/**
 * A distribution's entries in the question's order; labels the question does not name
 * (there should be none) follow in stored order, so nothing stored is hidden.
 */
export function orderedDistribution(distribution: Readonly<Record<string, number>>, labels: readonly string[] | null): { label: string; probability: number }[] {
  const known = (labels ?? []).filter((l) => l in distribution);
  const rest = Object.keys(distribution).filter((l) => !known.includes(l));
  return [...known, ...rest].map((label) => ({ label, probability: distribution[label] ?? 0 }));
}

/** The point as stored in `version_prompts.points`: a question point carries its labels in written order. */
export function storedPoint<P extends { kind: string }>(point: P): P & { labels?: string[] } {
  if (point.kind !== 'question') return point;
  const q = point as unknown as Extract<StoredPoint, { kind: 'question' }>;
  return { ...point, labels: questionLabels(q.question) };
}
