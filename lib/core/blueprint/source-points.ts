/**
 * The AUTHORED point forms (Weval's and Assay's: docs/compatibility.md) as a zod schema, for the
 * blueprint's JSON Schema (editor completion and checking) and for the drift test against the
 * loader.
 *
 * Everything about point functions is generated from the registry: one `$name: args` form per
 * accepted spelling (canonical, alias, `not_` form) whose argument schema IS the function's
 * registry `args` schema, and one `{fn, arg|fnArgs}` form per function. A new function or
 * alias therefore appears here with no edit, and an argument shape cannot be copied wrong.
 *
 * This mirrors `points.ts`/`question-points.ts` but does not replace them: the loader still
 * decides (positions, hints, regex compilation); this schema only has to accept what the
 * loader accepts without warnings and refuse the common mistakes an editor should flag.
 */
import { z } from 'zod';
import { ChoiceQuestionSchema, ScoreQuestionSchema } from '../judging/questions';
import { acceptedNames, resolvePointFunction } from '../points/registry';
import { listCriterionKinds } from '../criteria/registry';
import type { PointFunctionDef } from '../points/types';
import { alternatives, fragment, pattern as regex } from '../untrusted';
import { POINT_FIELDS } from './vocabulary';

type Block = 'should' | 'should_not';

/** A string with something other than whitespace in it (the loader rejects empty criteria). */
export const NonBlank = z.string().regex(/\S/);

const Weight = z
  .number()
  .min(0.1)
  .max(10)
  .nullable()
  .meta({ id: 'pointWeight', description: "The point's relative weight, 0.1–10 (default 1): 2 counts twice as much as 1, 0.5 half as much." });
const Citation = z
  .union([z.string(), z.number(), z.boolean()])
  .nullable()
  .meta({ id: 'pointCitation', description: 'Where the expected fact comes from (a statute, a paper, a guideline); shown with the verdict.' });
const Gate = z.boolean().meta({ id: 'gate', description: 'Assay: a failed gate makes the whole attempt score 0, whatever the other points say.' });

/** `weight` (alias `multiplier`: vocabulary.ts), `citation`, `gate`: accepted by every point mapping. */
export const POINT_COMMON = {
  ...bySpelling(POINT_FIELDS.weight.spellings, (key) => (key === POINT_FIELDS.weight.name ? Weight.optional() : Weight.optional().describe(`Weval's name for \`${POINT_FIELDS.weight.name}\`.`))),
  citation: Citation.optional(),
  gate: Gate.optional(),
};

/** One property per spelling, in the parser's order. */
function bySpelling<T>(keys: readonly string[], schemaOf: (key: string) => T): Record<string, T> {
  return Object.fromEntries(keys.map((key) => [key, schemaOf(key)]));
}

interface FunctionInfo {
  canonical: string;
  def: PointFunctionDef<unknown>;
  negated: boolean;
}

function infoOf(name: string): FunctionInfo {
  const r = resolvePointFunction(name);
  // acceptedNames only lists names that resolve; anything else is a registry bug.
  if (!r.ok) throw new Error(`registry lists "${name}" as accepted but cannot resolve it: ${r.message}`);
  return { canonical: r.canonical, def: r.def, negated: r.negated };
}

/** Whether `name` may be written under `block` (a `should_not` function is stored negated, so it must be negatable). */
function allowedIn(info: FunctionInfo, block: Block): boolean {
  return block === 'should' || info.def.negatable;
}

/** Each canonical function's registry schema, once, as a named definition of the JSON Schema. */
const argsSchemas = new Map<string, z.ZodType>();
function argsOf(info: FunctionInfo): z.ZodType {
  let schema = argsSchemas.get(info.canonical);
  if (!schema) {
    schema = info.def.args.meta({ id: `args.${info.canonical}`, description: `Argument of ${info.canonical}: ${info.def.description}` });
    argsSchemas.set(info.canonical, schema);
  }
  return schema;
}

function describeName(name: string, info: FunctionInfo): string {
  const written = (info.negated ? 'not_' : '') + info.canonical;
  const alias = written === name ? '' : ` (alias of \`$${written}\`)`;
  const what = info.negated ? `Negation of \`$${info.canonical}\` (1 − its score): ${info.def.description}` : info.def.description;
  return `\`$${name}\`${alias}. ${what}`;
}

const fnBranches = new Map<string, z.ZodType>();
/** `- $name: args`, with the common point fields beside it. */
function dollarFunction(name: string, info: FunctionInfo): z.ZodType {
  let branch = fnBranches.get(name);
  if (!branch) {
    branch = z
      .object({ [`$${name}`]: argsOf(info), ...POINT_COMMON })
      .strict()
      .meta({ id: `point.$${name}`, description: describeName(name, info) });
    fnBranches.set(name, branch);
  }
  return branch;
}

/**
 * `- { fn: name, fnArgs|arg: args }`: one form per canonical function, `fn` being any of its
 * spellings (with or without `$`). When the function needs an argument, one of the two keys
 * must hold it (the loader reads `fnArgs`, else `arg`). A function is either allowed in a block
 * with all its spellings or not at all, so the forms are shared by `should` and `should_not`.
 */
const objectBranches = new Map<string, z.ZodType[]>();
function objectFunction(info: FunctionInfo): z.ZodType[] {
  let branches = objectBranches.get(info.canonical);
  if (!branches) {
    const names = acceptedNames.filter((name) => infoOf(name).canonical === info.canonical).flatMap((name) => [name, `$${name}`]);
    const fn = z.enum(names as [string, ...string[]]).describe(`${info.canonical}: ${info.def.description}`);
    const args = argsOf(info);
    const id = `point.fn.${info.canonical}`;
    branches = args.safeParse(undefined).success
      ? [z.object({ fn, ...bySpelling(POINT_FIELDS.args.spellings, () => args.optional()), ...POINT_COMMON }).strict().meta({ id })]
      : POINT_FIELDS.args.spellings.map((key) => z.object({ fn, [key]: args, ...POINT_COMMON }).strict().meta({ id: `${id}.${key}` }));
    objectBranches.set(info.canonical, branches);
  }
  return branches;
}

function objectFunctions(block: Block): z.ZodType[] {
  const canonical = new Map<string, FunctionInfo>();
  for (const name of acceptedNames) {
    const info = infoOf(name);
    if (allowedIn(info, block)) canonical.set(info.canonical, info);
  }
  return [...canonical.values()].flatMap(objectFunction);
}


/**
 * A plain string: a criterion for the judge, or `$name` / `$name: argument` (the loader splits a
 * quoted `"$icontains: '(A)'"` into the function and its argument). A string that starts with
 * `$` and a letter must name a function accepted here; `$5 fee` is prose, as in Weval.
 */
function stringPoint(block: Block): z.ZodType {
  const names = acceptedNames.filter((name) => allowedIn(infoOf(name), block)).concat('ref');
  const fn = fragment`\\s*\\$${alternatives(names)}\\s*(?::[\\s\\S]*)?`;
  const pattern = regex()`^(?:(?!\\s*\\$[A-Za-z_])[\\s\\S]*\\S[\\s\\S]*|${fn})$`;
  return z
    .string()
    .regex(pattern)
    .meta({
      id: block === 'should' ? 'point.string' : 'point.string.should_not',
      description:
        'A criterion the judge grades (e.g. "Mentions the 30-day deadline"), or a point function written as one string: `$factcheck`, `"$icontains: \'(A)\'"`.' +
        (block === 'should_not' ? ' Under should_not, a function is inverted (`$contains` means "must not contain"), so only functions with a meaningful inverse are allowed.' : ''),
      patternErrorMessage: 'Write a non-empty criterion, or `$name` / `$name: argument` with a known point function name (e.g. `$icontains: "(A)"`).',
    });
}

const RefName = z
  .union([z.string().min(1), z.object({ name: z.string().min(1) }).strict()])
  .meta({ id: 'refName', description: 'The name of an entry of the header\'s `point_defs`.' });

/** `- $ref: name`, and `{ fn: ref, arg: name }`: a reusable point of `point_defs`, with its own weight, citation, gate. */
const refForms: z.ZodType[] = [
  z.object({ $ref: RefName, ...POINT_COMMON }).strict().meta({ id: 'point.$ref', description: 'A point defined once under the header\'s `point_defs`.' }),
  ...POINT_FIELDS.args.spellings.map((key) => z.object({ fn: z.enum(['ref', '$ref']), [key]: RefName, ...POINT_COMMON }).strict()),
];

/** `- text: "…"` / `- point: "…"` with weight, citation, gate. */
const textObjects: z.ZodType[] = POINT_FIELDS.text.spellings.map((key) =>
  z
    .object({ [key]: NonBlank.describe(key === POINT_FIELDS.text.name ? 'The criterion the judge grades.' : `The criterion the judge grades (alias of \`${POINT_FIELDS.text.name}\`).`), ...POINT_COMMON })
    .strict()
    .meta({ id: `point.${key}` }),
);

/** Judge questions whose answers are probabilities (docs/judging.md). */
const questions: z.ZodType[] = [
  z
    .object({ noul: NonBlank.describe('A true/false statement, phrased so that true is what you want; value = P(true).'), ...POINT_COMMON })
    .strict()
    .meta({ id: 'point.noul', description: 'Assay judge question: true or false.' }),
  z
    .object({
      score: NonBlank.describe('The question; its value is the expected level ÷ the top level.'),
      levels: ScoreQuestionSchema.shape.levels
        .refine((levels) => new Set(levels).size === levels.length, 'every level must be distinct')
        .meta({ uniqueItems: true, description: 'The levels, written WORST FIRST as an explicit list: the order is the meaning.' }),
      ...POINT_COMMON,
    })
    .strict()
    .meta({ id: 'point.score', description: 'Assay judge question: ordered levels.' }),
  z
    .object({
      choice: NonBlank.describe('The question.'),
      options: ChoiceQuestionSchema.shape.options
        .refine((o) => Object.values(o).some((credit) => credit !== null), 'at least one option needs a credit from 0 to 1')
        .meta({ minProperties: 1, description: 'Each option → its credit in [0, 1], or null for "this question does not apply".' }),
      ...POINT_COMMON,
    })
    .strict()
    .meta({ id: 'point.choice', description: 'Assay judge question: options with credits.' }),
];

/** Keys that make a mapping some other point form, so they cannot be a `"criterion": "citation"` pair. */
const RESERVED_KEYS = [...POINT_FIELDS.text.spellings, 'fn', ...POINT_FIELDS.args.spellings, ...POINT_FIELDS.weight.spellings, 'citation', 'gate', 'noul', 'score', 'choice', 'kind'];

/** `- "Mentions the deadline": "Source of the rule"`: a criterion with its citation. */
const criterionWithCitation = z
  .record(z.string().regex(regex()`^(?!\\$|${alternatives(RESERVED_KEYS)}$)[\\s\\S]*\\S`), z.string())
  .refine((o) => Object.keys(o).length === 1, 'a "criterion": "citation" point has exactly one key')
  .meta({ id: 'point.criterionCitation', minProperties: 1, maxProperties: 1, description: 'A criterion as the key, its citation as the value.' });

const CriterionWeight = z.number().positive().meta({ id: 'criterionWeight', description: "The criterion's weight in the attempt's score (default 1): passed weight ÷ passed and failed weight." });

/**
 * soev criteria (`- kind: reply.language`), one form per kind of the criterion registry: the
 * parameters beside `kind` (their schema IS the kind's), or under `params:`.
 */
export function criterionSchemas(): z.ZodType[] {
  return (criterionForms ??= listCriterionKinds().flatMap((def) => {
    const shape = def.params instanceof z.ZodObject ? (def.params.shape as z.ZodRawShape) : {};
    const common = { kind: z.literal(def.name), weight: CriterionWeight.optional(), gate: Gate.optional() };
    return [
      z.strictObject({ ...common, ...shape }).meta({ id: `criterion.${def.name}`, description: `soev criterion: ${def.summary}` }),
      // under `params:`, where a key beside `kind` replaces the same key under `params` (so both may be written)
      z.strictObject({ ...common, ...z.object(shape).partial().shape, params: z.object(shape).partial().strict() }).meta({ id: `criterion.${def.name}.params`, description: `soev criterion, parameters under \`params\`: ${def.summary}` }),
    ];
  }));
}
let criterionForms: z.ZodType[] | undefined;

/** A prompt's `criteria:` or the header's `defaults:`: a list of `- kind:` entries. */
export function criteriaBlock(): z.ZodType {
  return (criteriaList ??= z.array(z.union(criterionSchemas() as [z.ZodType, ...z.ZodType[]])).meta({ id: 'criteria', description: 'soev criteria: `- kind: …` with its parameters, `weight` and `gate`.' }));
}
let criteriaList: z.ZodType | undefined;

const pointSchemas = new Map<string, z.ZodType>();

/** One point in any form except a nested list, as written under `block` (`definition`: in `point_defs`, where `$ref` is not allowed). */
export function pointSchema(block: Block, definition = false): z.ZodType {
  const key = `${block}${definition ? ':def' : ''}`;
  let schema = pointSchemas.get(key);
  if (!schema) {
    const functions = acceptedNames.filter((name) => allowedIn(infoOf(name), block)).map((name) => dollarFunction(name, infoOf(name)));
    const mappings = [...textObjects, ...questions, ...functions, ...objectFunctions(block), ...(definition ? [] : refForms), ...(block === 'should' ? criterionSchemas() : []), criterionWithCitation];
    schema = z.union([...(definition ? [] : [stringPoint(block)]), ...mappings] as [z.ZodType, ...z.ZodType[]]).meta({
      id: definition ? 'pointDefinitionMapping' : block === 'should' ? 'point' : 'point.should_not',
      description: 'One criterion: a string for the judge, `$function: argument`, `{ point|text|fn, arg|fnArgs, weight, citation, gate }`, `$ref`, or a judge question (`noul`, `score`, `choice`).',
    });
    pointSchemas.set(key, schema);
  }
  return schema;
}

/**
 * A rubric block (`should` and its aliases, `should_not`): a list of points, where a nested list
 * is an alternative path (OR: the best path counts; paths cannot nest).
 */
const blocks = new Map<Block, z.ZodType>();
export function pointsBlock(block: Block): z.ZodType {
  let schema = blocks.get(block);
  if (!schema) {
    const point = pointSchema(block);
    const path = z.array(point.nullable()).describe('An alternative path: these points together are one way to satisfy the rubric; the best path counts.');
    schema = z.array(z.union([point, path])).meta({
      id: block,
      description: block === 'should' ? 'What a good reply does: a list of points.' : 'What a good reply does NOT do (deprecated, still supported): each point is inverted.',
    });
    blocks.set(block, schema);
  }
  return schema;
}

/** A `point_defs` entry: JavaScript for `$js` (a string), or any point mapping except a `$ref`. */
export function pointDefinition(): z.ZodType {
  return (definition ??= z
    .union([z.string().describe('JavaScript, run as `$js` in the sandbox (`r` is the reply).'), pointSchema('should', true)])
    .meta({ id: 'pointDefinition' }));
}
let definition: z.ZodType | undefined;
