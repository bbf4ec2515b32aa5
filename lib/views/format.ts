/**
 * How numbers, intervals, dates and counts read on every page: decided once here so the
 * same score never shows as 73.4 on one page and 73 on another.
 */
import { roundHalfUp } from '@/lib/core';

/** Rounding half away from zero, immune to binary noise: core's, so ranks and labels agree. */
export { roundHalfUp };

/** A [0,1] score as points out of 100: 0.7345 → "73.5"; null (no score) → "—". */
export function formatScore(score: number | null | undefined, digits = 1): string {
  if (score === null || score === undefined || !Number.isFinite(score)) return '—';
  return roundHalfUp(score * 100, digits).toFixed(digits);
}

/** A 95% interval as "68.1–78.0"; null when there is none (fewer than two scored prompts). */
export function formatInterval(low: number | null | undefined, high: number | null | undefined, digits = 1): string | null {
  if (low === null || low === undefined || high === null || high === undefined) return null;
  return `${formatScore(low, digits)}–${formatScore(high, digits)}`;
}

/** The interval as a sentence for screen readers and tooltips. */
export function describeInterval(low: number | null | undefined, high: number | null | undefined): string {
  const i = formatInterval(low, high);
  return i ? `95% interval ${i.replace('–', ' to ')}` : 'no interval (too few scored prompts)';
}

/** Signed change in points: +3.2, −1.0, ±0.0. */
export function formatDelta(delta: number | null | undefined, digits = 1): string {
  if (delta === null || delta === undefined || !Number.isFinite(delta)) return '—';
  const r = roundHalfUp(delta * 100, digits);
  if (r === 0) return `±${(0).toFixed(digits)}`;
  return `${r > 0 ? '+' : '−'}${Math.abs(r).toFixed(digits)}`;
}

export function formatCount(n: number): string {
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

export function formatPercent(fraction: number, digits = 0): string {
  return `${roundHalfUp(fraction * 100, digits).toFixed(digits)}%`;
}

export function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.0001) return '<$0.0001';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

/** UTC, so the server's rendering and every reader's agree. */
export function formatDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function formatDateTime(d: Date): string {
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** "3 days ago", relative to a `now` the caller passes (views stay pure). */
export function formatAgo(d: Date, now: Date): string {
  const s = Math.max(0, Math.round((now.getTime() - d.getTime()) / 1000));
  if (s < 60) return 'just now';
  const units: [number, string][] = [
    [86_400 * 365, 'year'],
    [86_400 * 30, 'month'],
    [86_400 * 7, 'week'],
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) if (s >= size) return `${plural(Math.floor(s / size), name)} ago`;
  return 'just now';
}

export function shortSha(sha: string | null | undefined): string | null {
  return sha ? sha.slice(0, 7) : null;
}

/** The short name of a model id: `openrouter:openai/gpt-4o` → `gpt-4o`. */
export function modelShortName(modelId: string, displayName?: string | null): string {
  if (displayName) return displayName;
  const afterColon = modelId.slice(modelId.indexOf(':') + 1);
  return afterColon.slice(afterColon.lastIndexOf('/') + 1) || modelId;
}

/** Cuts text at a word boundary near `max` characters. */
export function truncate(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.5 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Markdown as plain text for one-line previews (cards, snippets): markup dropped, words kept. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`{1,3}([^`]*)`{1,3}/g, '$1')
    .replace(/(?<!\w)(\*\*|__|\*|_|~~)(?=\S)([^*_~\n]*?\S)\1(?!\w)/g, '$2')
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+|\d+\.\s+)/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
}
