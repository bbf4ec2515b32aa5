/**
 * Judge hardening: the reply under judgement is data, not
 * instructions. Two named pure functions:
 *
 * - `neutraliseDelimiters` rewrites, inside the reply, every tag that the judge prompt uses
 *   as a delimiter (`<TEXT>`, `</CRITERION>`, `<classification>`…), so a reply cannot close
 *   the data block early or plant an answer where the parser looks for one.
 * - `parseLastLabel` reads only the LAST well-formed label in the judge's output, so a label
 *   quoted from the reply earlier in the judge's reasoning does not count.
 */
import { alternatives, literal, pattern } from '../untrusted';

/** The tags Assay's judge prompts use (Weval's wording plus question answers). */
export const JUDGE_DELIMITERS = ['TEXT', 'CRITERION', 'PROMPT', 'QUESTION', 'OPTIONS', 'reflection', 'classification', 'answer', 'answers'] as const;

/**
 * Replaces `<` / `>` of any opening or closing delimiter tag (any case, inner spacing,
 * attributes, or missing `>`) with the look-alike `‹` / `›`, which a reader and a judge still
 * read as a tag-shaped string but no parser or prompt boundary treats as one.
 */
export function neutraliseDelimiters(reply: string, delimiters: readonly string[] = JUDGE_DELIMITERS): string {
  if (delimiters.length === 0) return reply;
  const tag = pattern('gi')`<(\\s*\\/?\\s*${alternatives(delimiters)}(?![\\w-])[^<>]*)(>?)`;
  return reply.replace(tag, (_m, inner: string, close: string) => `‹${inner}${close ? '›' : ''}`);
}

export type ParsedLabel = { ok: true; label: string; reasoning: string | null } | { ok: false; error: string };

/** Labels as a list (matched ignoring case and spacing) or a function returning the canonical label or null. */
export type LabelReader = readonly string[] | ((raw: string) => string | null);

function reader(labels: LabelReader): (raw: string) => string | null {
  if (typeof labels === 'function') return labels;
  const index = new Map(labels.map((l) => [l.trim().toLowerCase(), l]));
  return (raw) => index.get(raw.trim().toLowerCase()) ?? null;
}

/**
 * The last `<tag>LABEL</tag>` in the judge's output whose content is a known label (quotes,
 * backticks and emphasis around the label are forgiven), with the last `<reflection>` as the
 * reasoning. No well-formed label → `{ ok: false }`, which becomes an `error` verdict after
 * retries (never a 0).
 */
export function parseLastLabel(
  output: string,
  labels: LabelReader,
  opts: { tag?: string; reasoningTag?: string } = {},
): ParsedLabel {
  const read = reader(labels);
  const matches = [...output.matchAll(tagContent(opts.tag ?? 'classification'))];
  for (let i = matches.length - 1; i >= 0; i--) {
    const raw = (matches[i]?.[1] ?? '').trim().replace(/^[*_`"'\s]+|[*_`"'\s.]+$/g, '');
    const label = read(raw);
    if (label !== null) return { ok: true, label, reasoning: lastTagContent(output, opts.reasoningTag ?? 'reflection') };
  }
  return {
    ok: false,
    error:
      matches.length === 0
        ? `the judge's output has no <${opts.tag ?? 'classification'}> element`
        : `none of the ${matches.length} <${opts.tag ?? 'classification'}> elements holds a known label`,
  };
}

function lastTagContent(output: string, tagName: string): string | null {
  const all = [...output.matchAll(tagContent(tagName))];
  const last = all.at(-1)?.[1];
  return last === undefined ? null : last.trim();
}

/** `<tag>…</tag>` in any case and inner spacing, the content captured. */
function tagContent(tagName: string): RegExp {
  const tag = literal(tagName);
  return pattern('gi')`<\\s*${tag}\\s*>([\\s\\S]*?)<\\s*\\/\\s*${tag}\\s*>`;
}
