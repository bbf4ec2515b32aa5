/**
 * Two readings of a (draft-07) JSON Schema for authors: its shape in a short type notation
 * (`[integer, string[]]`, `{ name: string, where?: object | string }`) and a sample value
 * that the schema accepts, used as the example of a point function in the editor.
 */
export type JsonSchema = Record<string, unknown>;

const asList = (v: unknown): JsonSchema[] => (Array.isArray(v) ? (v as JsonSchema[]) : []);

export function shapeOf(s: JsonSchema): string {
  const alternatives = asList(s.anyOf ?? s.oneOf);
  if (alternatives.length) return alternatives.map(shapeOf).join(' | ');
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.type)) return s.type.join(' | ');
  switch (s.type) {
    case 'array':
      if (Array.isArray(s.items)) return `[${asList(s.items).map(shapeOf).join(', ')}]`;
      return s.items ? `${wrap(shapeOf(s.items as JsonSchema))}[]` : 'array';
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set(asList(s.required) as unknown as string[]);
      const keys = Object.entries(props).map(([k, v]) => `${k}${required.has(k) ? '' : '?'}: ${shapeOf(v)}`);
      return keys.length ? `{ ${keys.join(', ')} }` : 'object';
    }
    case undefined:
      return 'any';
    default:
      return String(s.type);
  }
}

const wrap = (shape: string) => (shape.includes(' ') ? `(${shape})` : shape);

/**
 * A value the schema likely accepts: the first alternative, minimum counts, the required keys
 * (and, with `optionalKeys`, that many optional ones too: a refinement may ask for one of them).
 */
export function sampleArgument(s: JsonSchema, optionalKeys = 0): unknown {
  const alternatives = asList(s.anyOf ?? s.oneOf);
  if (alternatives.length) return sampleArgument(alternatives[0]!, optionalKeys);
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'string':
      return 'text';
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' && s.minimum > 1 ? s.minimum : 1;
    case 'boolean':
      return true;
    case 'array': {
      if (Array.isArray(s.items)) return asList(s.items).map((item) => sampleArgument(item));
      const count = Math.max(1, typeof s.minItems === 'number' ? s.minItems : 1);
      return Array.from({ length: count }, () => (s.items ? sampleArgument(s.items as JsonSchema) : 'text'));
    }
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, JsonSchema>;
      const required = asList(s.required) as unknown as string[];
      const optional = Object.keys(props).filter((k) => !required.includes(k)).slice(0, optionalKeys);
      return Object.fromEntries([...required, ...optional].map((k) => [k, props[k] ? sampleArgument(props[k]) : 'text']));
    }
    default:
      return null;
  }
}
