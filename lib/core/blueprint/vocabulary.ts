/**
 * The blueprint fields that have more than one spelling, each declared once: its canonical
 * name, every spelling the loader accepts (the canonical one included) in the order the parser
 * prefers them, where it may be written, and how the parser chooses when an author writes two
 * spellings of one field. These are Weval's aliases (docs/compatibility.md) plus Assay's own
 * (`retrieval_config`).
 *
 * The parser (header.ts, prompts.ts, points.ts, retrieval-field.ts), the authored-format schema
 * (source-schema.ts, source-points.ts) and the form editor (lib/core/authoring) take their
 * spellings from here, so an alias added here is read, offered to editors and edited in place
 * everywhere at once; vocabulary.test.ts checks each of them against this table.
 */

export type FieldScope = 'header' | 'prompt' | 'point';

/**
 * How the parser chooses among spellings written together (Weval's rules, kept as they are):
 * - `first-written`: the first spelling present wins, even when its value is null or empty (`a ?? b`);
 * - `first-truthy`: the first spelling whose value is truthy wins (`a || b`); with none truthy the field is not set;
 * - `first-truthy-else-last`: the first truthy one, else the last spelling's value, which is then read and checked (`truthy(a) ? a : b`);
 * - `one-only`: two spellings written together are an error (for the rubric, the first truthy one is still read).
 */
export type Precedence = 'first-written' | 'first-truthy' | 'first-truthy-else-last' | 'one-only';

export interface FieldWord {
  /** Assay's spelling: the one the docs use and the form editor writes when the author wrote none. */
  readonly name: string;
  readonly scope: FieldScope;
  /** Every accepted spelling, `name` included, in the parser's order of preference. */
  readonly spellings: readonly [string, ...string[]];
  readonly precedence: Precedence;
}

function word(scope: FieldScope, name: string, spellings: readonly [string, ...string[]], precedence: Precedence): FieldWord {
  if (!spellings.includes(name)) throw new Error(`the spellings of \`${name}\` must include it`);
  return { name, scope, spellings, precedence };
}

/** Header fields with aliases. */
export const HEADER_FIELDS = {
  id: word('header', 'id', ['id', 'configId'], 'first-truthy'),
  title: word('header', 'title', ['title', 'configTitle'], 'first-truthy'),
  /** `citations:` written as a reading rule (`{ mapping | pattern }`) is not a reference (criteria-header.ts). */
  references: word('header', 'references', ['reference', 'citation', 'references', 'citations'], 'first-truthy'),
  /** `system` may also be a list of variants (then `systems` is its plural); `systemPrompt` is the legacy single prompt. */
  system: word('header', 'system', ['system', 'systemPrompt'], 'first-truthy-else-last'),
  point_defs: word('header', 'point_defs', ['point_defs', 'defs'], 'first-written'),
  retrieval: word('header', 'retrieval', ['retrieval', 'retrieval_config'], 'one-only'),
} as const;

/** Prompt fields with aliases. */
export const PROMPT_FIELDS = {
  prompt: word('prompt', 'prompt', ['prompt', 'promptText'], 'first-written'),
  ideal: word('prompt', 'ideal', ['ideal', 'idealResponse'], 'first-truthy-else-last'),
  citation: word('prompt', 'citation', ['citation', 'reference'], 'first-truthy-else-last'),
  weight: word('prompt', 'weight', ['weight', 'importance', 'multiplier'], 'first-written'),
  /** The rubric. A mapping under `expect` is soev's expectation, not a rubric (case-fields.ts). */
  should: word('prompt', 'should', ['should', 'points', 'expect', 'expects', 'expectations'], 'one-only'),
} as const;

/** Point-mapping fields with aliases. */
export const POINT_FIELDS = {
  text: word('point', 'text', ['text', 'point'], 'first-written'),
  /** The argument of `fn:`: Weval's `fnArgs` is read first, Assay writes `arg`. */
  args: word('point', 'arg', ['fnArgs', 'arg'], 'first-written'),
  weight: word('point', 'weight', ['weight', 'multiplier'], 'first-written'),
} as const;

/** Every field with aliases, header first. */
export const VOCABULARY: readonly FieldWord[] = [...Object.values(HEADER_FIELDS), ...Object.values(PROMPT_FIELDS), ...Object.values(POINT_FIELDS)];

/** The spellings other than the canonical name, in the parser's order. */
export function aliasesOf(field: FieldWord): string[] {
  return field.spellings.filter((spelling) => spelling !== field.name);
}

/** The spelling an author wrote (the first present, in the parser's order), or undefined. */
export function writtenSpelling(field: FieldWord, has: (key: string) => boolean): string | undefined {
  return field.spellings.find(has);
}
