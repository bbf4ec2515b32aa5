/**
 * A blueprint's source for showing publicly (sealed prompts are run and scored,
 * never shown). A file without sealed prompts is shown byte for byte. A file with some is
 * rebuilt from the parser's documents with the sealed prompts removed (lib/core
 * `redactSealed`: aliases and merge keys already resolved), re-serialised as YAML under a
 * note saying how many are hidden. Working on the parsed document, not the text, is the
 * point: `split: *t`, `<<: *sealed`, `{split: test}`, `? split` … are all sealed the
 * same way the runner seals them. A file that does not parse shows nothing if it could hold a
 * sealed prompt (null): we cannot tell which part to hide.
 *
 * It parses the stored text, so the server runs it in the untrusted-work pool (task
 * `redact-sealed-source`, see db/queries/blueprint-source.ts); it stays a pure function for that.
 */
import { stringify } from 'yaml';
import { redactSealed } from '@/lib/core';

/**
 * A file that does not parse could still be meant to seal prompts: any spelling of the key
 * either says `split` or hides letters behind a double-quoted escape (`"sp\x6cit"`).
 */
const COULD_BE_SEALED = /split|\\/i;

export function sealedNote(count: number): string {
  return `# ${count} sealed test prompt${count === 1 ? ' is' : 's are'} hidden here: run and scored, never shown.\n`;
}

export function redactSealedSource(text: string, file: string): string | null {
  const r = redactSealed(text, { file });
  if (!r.ok) return COULD_BE_SEALED.test(text) ? null : text;
  if (!r.documents) return text;
  const body = r.documents.map((doc) => stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false })).join('---\n');
  return `${sealedNote(r.sealed)}${body}`;
}
