#!/usr/bin/env node
/**
 * Extracts Inspect's `EvalLog` JSON Schema from the OpenAPI document Inspect publishes
 * (`src/inspect_ai/_view/inspect-openapi.json` in UKGovernmentBEIS/inspect_ai) into one
 * self-contained JSON Schema (draft 2020-12): `EvalLog` at the root, every component it reaches
 * under `$defs`, references rewritten from `#/components/schemas/X` to `#/$defs/X`.
 *
 * OpenAPI 3.1 schema objects are JSON Schema 2020-12 plus a few OpenAPI keywords; the only one
 * this document uses is `discriminator`, which a JSON Schema validator does not know and which
 * adds nothing to validation (each `oneOf` branch already fixes its tag with `const`), so it is
 * dropped. Nothing else is changed.
 *
 * Usage: node extract-schema.mjs INSPECT_OPENAPI_JSON OUT_SCHEMA_JSON COMMIT
 */
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output, commit] = process.argv.slice(2);
if (!input || !output || !commit) {
  console.error('usage: node extract-schema.mjs INSPECT_OPENAPI_JSON OUT_SCHEMA_JSON COMMIT (the inspect_ai commit the document was read at)');
  process.exit(2);
}
const doc = JSON.parse(readFileSync(input, 'utf8'));
const components = doc?.components?.schemas;
if (!components?.EvalLog) {
  console.error(`${input}: no components.schemas.EvalLog; is this Inspect's inspect-openapi.json?`);
  process.exit(1);
}

const PREFIX = '#/components/schemas/';

/** Every component name `value` refers to. */
function refsOf(value, out = new Set()) {
  if (Array.isArray(value)) for (const v of value) refsOf(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(PREFIX)) out.add(v.slice(PREFIX.length));
      else if (k !== 'discriminator') refsOf(v, out);
    }
  }
  return out;
}

/** `value` with refs pointing into `$defs` and the OpenAPI-only `discriminator` keyword dropped. */
function rewrite(value) {
  if (Array.isArray(value)) return value.map(rewrite);
  if (!value || typeof value !== 'object') return value;
  const out = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'discriminator') continue;
    if (k === '$ref' && typeof v === 'string' && v.startsWith(PREFIX)) out[k] = `#/$defs/${v.slice(PREFIX.length)}`;
    else out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v).map(([p, s]) => [p, rewrite(s)])) : rewrite(v);
  }
  return out;
}

const reached = new Set();
const queue = ['EvalLog'];
while (queue.length) {
  const name = queue.pop();
  if (reached.has(name)) continue;
  if (!components[name]) throw new Error(`EvalLog refers to ${name}, which the document does not define`);
  reached.add(name);
  for (const r of refsOf(components[name])) queue.push(r);
}
reached.delete('EvalLog');

const schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: `https://github.com/UKGovernmentBEIS/inspect_ai/blob/${commit}/src/inspect_ai/_view/inspect-openapi.json`,
  $comment: `Extracted by lib/server/exports/inspect/extract-schema.mjs from inspect_ai ${commit}; do not edit by hand.`,
  ...rewrite(components.EvalLog),
  $defs: Object.fromEntries([...reached].sort().map((name) => [name, rewrite(components[name])])),
};
writeFileSync(output, `${JSON.stringify(schema, null, 2)}\n`);
console.log(`${output}: EvalLog and ${reached.size} components`);
