/**
 * The authored-format schema against the loader (drift test): every blueprint the loader
 * accepts, in the real corpus and in blueprints/, passes the schema document by document; the
 * mistakes an editor should flag fail it; and the point functions come from the registry.
 */
/// <reference types="vite/client" />
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { corpusBlueprints, needsCorpus, WEVAL_CORPUS } from '@/testing/outside-data';
import { acceptedNames, listPointFunctions } from '../points/registry';
import { PASSTHROUGH_KEYS, READ_KEYS } from './header';
import { parseBlueprint } from './parse';
import { PROMPT_KEYS } from './prompts';
import { blueprintJsonSchema, blueprintSourceSchema } from './source-schema';
import { yaml } from './blueprint.testkit';

// Read through the bundler (the examples) and the test kit (the Weval corpus, outside the
// repository: {} without it): lib/core code, tests included, does no I/O of its own.
const corpus = corpusBlueprints();
// soev project and suite files follow soev's format (lib/core/soev, docs/soev.md), not this schema.
const examples = import.meta.glob<string>(['../../../blueprints/**/*.{yml,yaml,json}', '!../../../blueprints/soev-example/**'], { query: '?raw', import: 'default', eager: true });

/** The file's documents as plain values, split as the loader splits them (empty documents skipped). */
function documentsOf(text: string, file: string): unknown[] {
  const json = file.endsWith('.json');
  return parseAllDocuments(text, { merge: true, uniqueKeys: !json })
    .map((doc) => doc.toJS() as unknown)
    .filter((value) => value !== null && value !== undefined);
}

/** Each rejected document's first problems, `file#doc: path: message`, for a readable failure. */
function rejected(files: Record<string, string>): { accepted: number; documents: number; failures: string[] } {
  const schema = blueprintSourceSchema();
  let accepted = 0;
  let documents = 0;
  const failures: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    if (!parseBlueprint(text, { file }).ok) continue;
    accepted++;
    documentsOf(text, file).forEach((doc, i) => {
      documents++;
      const result = schema.safeParse(doc);
      if (!result.success) failures.push(`${file}#${i}: ${result.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
    });
  }
  return { accepted, documents, failures };
}

describe('the authored-format schema accepts what the loader accepts', () => {
  it.skipIf(!WEVAL_CORPUS)(needsCorpus('every loadable blueprint of the weval-configs corpus, document by document'), () => {
    const { accepted, documents, failures } = rejected(corpus);
    expect(accepted).toBe(193);
    expect(documents).toBeGreaterThan(accepted);
    expect(failures).toEqual([]);
  });

  it('every example in blueprints/, all of which load', () => {
    const { accepted, failures } = rejected(examples);
    expect(accepted).toBe(Object.keys(examples).length);
    expect(accepted).toBeGreaterThan(0);
    expect(failures).toEqual([]);
  });

  it('represents every layout: header + prompt list, prompt stream, list, `prompts:` key, lone prompt, JSON', () => {
    const layouts = [
      yaml`
        title: T
        ---
        - prompt: a
          should: [x]
      `,
      'prompt: a\n---\n- prompt: b\n',
      '- prompt: a\n- messages: [{ user: hi }, { assistant: null }, { user: more }]\n',
      'title: T\nprompts:\n  - id: p\n    prompt: a\n',
      'prompt: lone\nshould: ["$contains: x"]\n',
      '{"title": "T", "prompts": [{"prompt": "a", "should": [{"$icontains": "b"}]}]}',
    ];
    for (const text of layouts) {
      expect(parseBlueprint(text, { file: text.startsWith('{') ? 'b.json' : 'b.yml' }).ok).toBe(true);
      for (const doc of documentsOf(text, 'b.yml')) expect(blueprintSourceSchema().safeParse(doc).success, text).toBe(true);
    }
  });
});

describe('the authored-format schema refuses the mistakes the loader refuses', () => {
  const bad: Record<string, string> = {
    'an unknown function': 'prompt: q\nshould:\n  - $contans: x\n',
    'an unknown function in a string': 'prompt: q\nshould:\n  - "$contans: x"\n',
    'a wrong argument shape (registry schema)': 'prompt: q\nshould:\n  - $contains_any_of: "x"\n',
    'a weight out of range': 'prompt: q\nshould:\n  - { point: x, weight: 20 }\n',
    '`fn` without its argument': 'prompt: q\nshould:\n  - { fn: contains }\n',
    'an empty criterion': 'prompt: q\nshould:\n  - "  "\n',
    'a should that is not a list': 'prompt: q\nshould: "Mentions Paris"\n',
    'a score question without levels': 'prompt: q\nshould:\n  - score: "How grounded?"\n',
    'a prompt without text': 'id: x\nshould: [a]\n',
    'an unknown message role': 'messages:\n  - robot: hi\n',
    'a misspelt header field': 'titel: x\n',
    'a misspelt prompt field': 'prompt: q\nshuold: [a]\n',
  };
  for (const [what, text] of Object.entries(bad)) {
    it(what, () => {
      expect(parseBlueprint(text, { file: 'bad.yml' }).ok && parseBlueprint(text, { file: 'bad.yml' }).warnings.length === 0).toBe(false);
      expect(documentsOf(text, 'bad.yml').some((doc) => !blueprintSourceSchema().safeParse(doc).success)).toBe(true);
    });
  }
});

describe('the JSON Schema', () => {
  const schema = blueprintJsonSchema() as { $schema: string; definitions: Record<string, { properties?: Record<string, unknown> }> };

  it('is draft-07 (what yaml-language-server supports best) and the same on every call', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(JSON.stringify(blueprintJsonSchema())).toBe(JSON.stringify(schema));
  });

  it('knows exactly the header and prompt fields the loader reads', () => {
    expect(Object.keys(schema.definitions.header?.properties ?? {}).sort()).toEqual([...READ_KEYS, ...PASSTHROUGH_KEYS].sort());
    expect(Object.keys(schema.definitions.prompt?.properties ?? {}).sort()).toEqual([...PROMPT_KEYS].sort());
  });

  it('has a `$name: args` form for every accepted function name, whose argument is the registry schema', () => {
    for (const name of acceptedNames) {
      expect(schema.definitions[`point.$${name}`]?.properties?.[`$${name}`], name).toMatchObject({ $ref: expect.stringMatching(/^#\/definitions\/args\./) });
    }
    for (const def of listPointFunctions()) expect(schema.definitions[`args.${def.name}`], def.name).toMatchObject({ description: expect.stringContaining(def.description) });
  });
});
