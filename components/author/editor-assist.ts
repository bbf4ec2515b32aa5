/**
 * Completion and hover documentation for the blueprint editor, from `authoringCatalog()`
 * (lib/core: the point-function registry, the criterion kinds, the published JSON Schema).
 * The page builds the catalog on the server and passes it in as data (about 12 KB of JSON):
 * building it from the zod schemas takes longer than a keystroke may wait.
 *
 * Which keys to offer is read from the indentation above the cursor: under `should:` (and its
 * aliases) a point's keys and the `$functions`, under `prompts:` or in a top-level list a
 * prompt's keys, at the top level the header's. The parser stays the authority on what is
 * valid; this only has to offer the right names.
 */
import type { Completion, CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import type { EditorState } from '@codemirror/state';
import type { Extension } from '@codemirror/state';
import { hoverTooltip, type Tooltip } from '@codemirror/view';
import type { AuthoringCatalog, FieldScope, PointFunctionDoc } from '@/lib/core';

const POINT_LISTS = new Set(['should', 'should_not', 'points', 'expect', 'expects', 'expectations']);

/** The scope of a key written at `pos`, from the first less-indented line above it. */
export function scopeAt(state: EditorState, pos: number): FieldScope {
  const line = state.doc.lineAt(pos);
  const indent = indentOf(line.text.slice(0, pos - line.from));
  if (indent === 0 && !/^\s*-/.test(line.text)) return 'header';
  for (let n = line.number - 1; n >= 1; n--) {
    const text = state.doc.line(n).text;
    if (!text.trim() || text.trim().startsWith('#')) continue;
    if (indentOf(text) >= indent) continue;
    const key = /^\s*(?:-\s+)?([\w$]+):\s*$/.exec(text)?.[1];
    if (key && POINT_LISTS.has(key)) return 'point';
    if (key === 'prompts' || indentOf(text) === 0) return 'prompt';
    if (/^\s*-\s/.test(text) && indentOf(text) <= 2) return 'prompt';
  }
  return 'prompt';
}

/** Columns of leading spaces, counting a list dash as indentation (`  - key` → 4). */
function indentOf(text: string): number {
  return /^[\s-]*/.exec(text)![0].length;
}

function functionInfo(fn: PointFunctionDoc): string {
  const also = fn.aliases.length ? `\nAlso: ${fn.aliases.map((a) => `$${a}`).join(', ')}` : '';
  const not = fn.negatable ? `\nNegation: $not_${fn.name}` : '';
  return `${fn.description}\nArgument: ${fn.argShape}\nExample: ${fn.example}${also}${not}`;
}

interface Options {
  functions: Completion[];
  fields: Record<FieldScope, Completion[]>;
  kinds: Completion[];
}

function completionOptions(c: AuthoringCatalog): Options {
  const fieldOptions = (scope: FieldScope) => c.fields[scope].map((f): Completion => ({ label: f.key, type: 'property', info: f.description, apply: `${f.key}: ` }));
  return {
    functions: c.pointFunctions.flatMap((fn) => [fn.name, ...fn.aliases, ...(fn.negatable ? [`not_${fn.name}`] : [])].map((name): Completion => ({ label: `$${name}`, type: 'function', detail: fn.argShape, info: functionInfo(fn), apply: `$${name}: ` }))),
    fields: { header: fieldOptions('header'), prompt: fieldOptions('prompt'), point: fieldOptions('point') },
    kinds: c.criterionKinds.map((k): Completion => ({ label: k.name, type: 'type', detail: 'criterion kind', info: `${k.summary}\nExample:\n${k.example}` })),
  };
}

/** The completion source over one catalog. */
export function blueprintCompletions(catalog: AuthoringCatalog): (context: CompletionContext) => CompletionResult | null {
  const o = completionOptions(catalog);
  return (context) => complete(o, context);
}

function complete(o: Options, context: CompletionContext): CompletionResult | null {
  const word = context.matchBefore(/\$?[\w.]*/);
  if (!word) return null;
  const before = context.state.doc.lineAt(context.pos).text.slice(0, word.from - context.state.doc.lineAt(context.pos).from);
  // only where a key starts: after indentation or a list dash, never inside a value
  if (!/^[\s-]*$/.test(before)) return null;
  if (word.from === word.to && !context.explicit) return null;
  const scope = scopeAt(context.state, word.from);
  const list = word.text.startsWith('$') ? o.functions : scope === 'point' ? [...o.fields.point, ...o.functions, ...o.kinds] : o.fields[scope];
  return { from: word.from, options: list, validFor: /^\$?[\w.]*$/ };
}

/** The documentation of the `$function` or key under the pointer. */
export function docAt(c: AuthoringCatalog, state: EditorState, pos: number): { from: number; to: number; text: string } | null {
  const line = state.doc.lineAt(pos);
  const re = /\$?[\w.]+/g;
  for (let m = re.exec(line.text); m; m = re.exec(line.text)) {
    const from = line.from + m.index;
    const to = from + m[0].length;
    if (pos < from || pos > to) continue;
    if (m[0].startsWith('$')) {
      const name = m[0].slice(1).replace(/^not_/, '');
      const fn = c.pointFunctions.find((f) => f.name === name || f.aliases.includes(name));
      return fn ? { from, to, text: `$${m[0].slice(1)}: ${functionInfo(fn)}` } : null;
    }
    if (line.text[m.index + m[0].length] !== ':') return null;
    const kind = c.criterionKinds.find((k) => k.name === m[0]);
    if (kind) return { from, to, text: `${kind.name}: ${kind.summary}` };
    const field = c.fields[scopeAt(state, from)].find((f) => f.key === m[0]);
    return field?.description ? { from, to, text: `${field.key}: ${field.description}` } : null;
  }
  return null;
}

export const blueprintHover = (catalog: AuthoringCatalog): Extension => hoverTooltip((view, pos): Tooltip | null => {
  const doc = docAt(catalog, view.state, pos);
  if (!doc) return null;
  return {
    pos: doc.from,
    end: doc.to,
    above: true,
    create() {
      const dom = document.createElement('div');
      dom.className = 'cm-blueprint-doc';
      dom.setAttribute('data-testid', 'editor-doc');
      dom.style.whiteSpace = 'pre-wrap';
      dom.style.maxWidth = '36rem';
      dom.style.padding = '4px 8px';
      dom.textContent = doc.text;
      return { dom };
    },
  };
});
