/**
 * Identities: the blueprint id from its path, and a prompt's stable hash id.
 *
 * A prompt without an `id` gets Weval's id: `hash-` + the first 12 hex digits of the SHA-256
 * of the prompt's Weval-normalised form (without `id`), serialised with sorted keys
 * (json-stable-stringify in Weval). Reproducing it exactly keeps a prompt's id, and so its
 * history, the same in Assay as in Weval. Both come from libraries that run synchronously in
 * the browser editor too, where `node:crypto` is absent and Web Crypto is asynchronous:
 * `@noble/hashes` (audited SHA-256) and `safe-stable-stringify` (deterministic mode gives
 * json-stable-stringify's output byte for byte; ids.test.ts holds it to that).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { configure } from 'safe-stable-stringify';

/** `a/b.yml` → `a__b`; `.weval.yml`/`.civic.yaml`/`.yml`/`.yaml`/`.json` are dropped (Weval's rule). */
export function blueprintIdFromPath(path: string): string {
  return path
    .replace(/\\/g, '/')
    .replace(/\.civic\.ya?ml$/, '')
    .replace(/\.weval\.ya?ml$/, '')
    .replace(/\.ya?ml$/, '')
    .replace(/\.json$/, '')
    .replace(/\//g, '__');
}

/** `hash-<12 hex>` of a value in Weval's normalised prompt shape (the caller leaves out `id`). */
export function promptHashId(wevalShapedPrompt: Record<string, unknown>): string {
  return `hash-${sha256Hex(stableStringify(wevalShapedPrompt) ?? '').slice(0, 12)}`;
}

/** Sorted keys; a cycle throws and a bigint is left out, as json-stable-stringify does and JSON.stringify would. */
const deterministic = configure({ deterministic: true, circularValue: TypeError, bigint: false });

/**
 * json-stable-stringify: object keys sorted, keys holding `undefined` left out, `undefined`
 * in arrays written as `null`, `toJSON` honoured; otherwise exactly `JSON.stringify`.
 */
export function stableStringify(value: unknown): string | undefined {
  return deterministic(value);
}

/** SHA-256 of the UTF-8 encoding of `text`, as lowercase hex (FIPS 180-4). */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}
