/**
 * `assay schema`: the JSON Schema of the blueprint format (draft-07), generated from the zod
 * schema of the authored format, the same document /schema/blueprint.json serves. `--out FILE`
 * writes it to a file (`npm run schema` keeps schema/blueprint.json, which the example
 * blueprints' yaml-language-server modelines point at, up to date).
 */
import { writeFile } from 'node:fs/promises';
import { blueprintJsonSchema } from '@/lib/core';
import { parseCommandArgs } from './usage';

const USAGE = `usage: assay schema [--out FILE]

Prints the JSON Schema of blueprint documents, for editors (yaml-language-server modeline:
  # yaml-language-server: $schema=<path or URL of the schema>).
  --out FILE   write it to FILE instead of standard output`;

/** The schema as text: stable key order and a final newline, so the committed copy diffs cleanly. */
export function blueprintJsonSchemaText(): string {
  return `${JSON.stringify(blueprintJsonSchema(), null, 2)}\n`;
}

export async function schemaCommand(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('schema', USAGE, argv, { options: { out: { type: 'string' } } });
  if (typeof parsed === 'number') return parsed;
  const { values } = parsed;
  if (values.out) await writeFile(values.out, blueprintJsonSchemaText());
  else process.stdout.write(blueprintJsonSchemaText());
  return 0;
}
