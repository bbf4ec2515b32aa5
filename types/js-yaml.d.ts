/** The part of js-yaml 4 (MIT, no bundled types; @types/js-yaml is not in the offline cache) that the blueprint loader's fast path uses. */
declare module 'js-yaml' {
  export interface Schema {
    readonly __brand: 'js-yaml schema';
  }
  /** What the loader passes to `listener` (its internal state: only the fields read here). */
  export interface LoaderState {
    /** The text as parsed: the input, with a newline appended when it had none. */
    readonly input: string;
    readonly position: number;
    /** `'scalar' | 'sequence' | 'mapping'`, or null for an empty node. */
    readonly kind: string | null;
    readonly result: unknown;
    /** `'?'` for a plain scalar, null when untagged, else the resolved tag. */
    readonly tag: string | null;
    readonly anchor: string | null;
  }
  export interface LoadOptions {
    filename?: string;
    schema?: Schema;
    json?: boolean;
    maxDepth?: number;
    listener?: (event: 'open' | 'close', state: LoaderState) => void;
  }
  export const FAILSAFE_SCHEMA: Schema;
  export const JSON_SCHEMA: Schema;
  export const CORE_SCHEMA: Schema;
  export const DEFAULT_SCHEMA: Schema;
  export function load(text: string, options?: LoadOptions): unknown;
  export function loadAll(text: string, iterator?: null, options?: LoadOptions): unknown[];
  export class YAMLException extends Error {}
  const jsyaml: {
    FAILSAFE_SCHEMA: Schema;
    JSON_SCHEMA: Schema;
    CORE_SCHEMA: Schema;
    DEFAULT_SCHEMA: Schema;
    load: typeof load;
    loadAll: typeof loadAll;
    YAMLException: typeof YAMLException;
  };
  export default jsyaml;
}
