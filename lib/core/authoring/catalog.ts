/**
 * What the browser editor offers as completion and hover documentation, built from the
 * registries themselves (never a hand-kept list): every point function with its argument
 * shape and an example, every criterion kind with its summary and example, and the keys a
 * header, a prompt and a point accept, described as in the published JSON Schema.
 *
 * A point function's example is generated from its argument schema (`sampleArgument`), and
 * `catalog.test.ts` parses every example as a blueprint point: a function whose example the
 * parser refuses fails the test, so the editor never suggests something that does not load.
 */
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { PointFunctionDef } from '../points/types';
import { blueprintJsonSchema } from '../blueprint/source-schema';
import { POINT_FIELDS } from '../blueprint/vocabulary';
import { criterionKind, criterionKindNames } from '../criteria/registry';
import { pointFunctionAliases, listPointFunctions } from '../points/registry';
import { sampleArgument, shapeOf, type JsonSchema } from './json-shape';
import { literal, pattern } from '../untrusted';

export interface PointFunctionDoc {
  /** Canonical name, without `$`. */
  name: string;
  description: string;
  /** Other spellings that resolve to it (`contain` for `contains`). */
  aliases: string[];
  negatable: boolean;
  /** The argument's shape in a short type notation, e.g. `[integer, string[]]`. */
  argShape: string;
  /** One YAML line of a point using it, e.g. `- $contains: "text"`. */
  example: string;
}

export interface CriterionKindDoc {
  name: string;
  summary: string;
  example: string;
  needs: readonly string[];
}

export interface FieldDoc {
  key: string;
  description: string;
}

export type FieldScope = 'header' | 'prompt' | 'point';

export interface AuthoringCatalog {
  pointFunctions: PointFunctionDoc[];
  criterionKinds: CriterionKindDoc[];
  fields: Record<FieldScope, FieldDoc[]>;
}

let built: AuthoringCatalog | undefined;

/** Built once on first use: the JSON Schema behind it is a few hundred definitions. */
export function authoringCatalog(): AuthoringCatalog {
  return (built ??= build());
}

function build(): AuthoringCatalog {
  const schema = blueprintJsonSchema() as JsonSchema;
  const aliasesOf = new Map<string, string[]>();
  for (const [alias, canonical] of Object.entries(pointFunctionAliases())) aliasesOf.set(canonical, [...(aliasesOf.get(canonical) ?? []), alias]);

  const pointFunctions = listPointFunctions()
    .map((def): PointFunctionDoc => {
      const args = z.toJSONSchema(def.args, { target: 'draft-07', io: 'input', unrepresentable: 'any' }) as JsonSchema;
      return {
        name: def.name,
        description: def.description,
        aliases: (aliasesOf.get(def.name) ?? []).sort(),
        negatable: def.negatable,
        argShape: shapeOf(args),
        example: `- ${exampleOf(def) ?? `$${def.name}: ${JSON.stringify(sampleFor(def, args))}`}`,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));

  const criterionKinds = criterionKindNames.flatMap((name): CriterionKindDoc[] => {
    const def = criterionKind(name);
    return def ? [{ name, summary: def.summary, example: def.example, needs: def.needs }] : [];
  });

  const definitions = (schema.definitions ?? {}) as Record<string, JsonSchema>;
  return {
    pointFunctions,
    criterionKinds,
    fields: {
      header: fieldsOf(definitions.header, definitions),
      prompt: fieldsOf(definitions.prompt, definitions),
      // every point mapping shares weight, gate, citation; `text` and its aliases are the judged forms
      point: POINT_FIELDS.text.spellings.flatMap((key) => fieldsOf(definitions[`point.${key}`], definitions)).filter((f, i, all) => all.findIndex((g) => g.key === f.key) === i),
    },
  };
}

/** A generated argument the function accepts: required keys only, else one optional key more. */
function sampleFor(def: PointFunctionDef<unknown>, args: JsonSchema): unknown {
  const candidates = [sampleArgument(args), sampleArgument(args, 1)];
  return candidates.find((c) => def.args.safeParse(c).success) ?? candidates[0];
}

/** Values no argument schema accepts all of: their errors carry the function's own "e.g." example. */
const PROBES: unknown[] = [undefined, 0.5, {}, [], [[]]];

/**
 * The example the registry's own error message gives (`…, e.g. \`$js: "r.length > 100"\``), when
 * there is one and the function's schema accepts it; otherwise undefined (a sample is generated).
 */
function exampleOf(def: PointFunctionDef<unknown>): string | undefined {
  for (const probe of PROBES) {
    const r = def.args.safeParse(probe);
    if (r.success) continue;
    for (const issue of r.error.issues) {
      const m = pattern()`e\\.g\\. \`(\\$${literal(def.name)}: [^\`]+)\``.exec(issue.message);
      if (!m) continue;
      const written = m[1]!;
      try {
        const value: unknown = parseYaml(written.slice(def.name.length + 3));
        if (def.args.safeParse(value).success) return written;
      } catch {
        // not YAML after all: keep looking
      }
    }
  }
  return undefined;
}

function fieldsOf(node: JsonSchema | undefined, definitions: Record<string, JsonSchema>): FieldDoc[] {
  const props = (node?.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(props).map(([key, value]) => ({ key, description: describe(value, definitions) }));
}

/** A property's description: its own, or the one of the definition it refers to. */
function describe(node: JsonSchema, definitions: Record<string, JsonSchema>): string {
  if (typeof node.description === 'string') return node.description;
  const ref = (node.$ref ?? (node.allOf as JsonSchema[] | undefined)?.[0]?.$ref) as string | undefined;
  const target = ref ? definitions[ref.replace('#/definitions/', '')] : undefined;
  return typeof target?.description === 'string' ? target.description : '';
}
