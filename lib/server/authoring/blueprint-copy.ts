/**
 * "Edit a copy": the source of a blueprint's latest version for the browser editor, exactly
 * as the public source view shows it (blueprint-source.ts): sealed `split: test` prompts are
 * taken out by the parser's own reading of the file, never shipped to the page. A file that
 * mentions sealed prompts but does not parse cannot be copied at all (nobody can tell which
 * part to hide), nor can one where a YAML alias outside a sealed prompt repeats something
 * written inside it (`prompt: &s …` sealed, `description: *s` in the header): the copy is built
 * with aliases resolved, so the sealed text would be in it (core `redactSealed`).
 */
import type { Db } from '../db/client';
import { getBlueprintSource } from '../db/queries/blueprint-source';

export type BlueprintCopy =
  | { ok: true; name: string; yaml: string; sealedRemoved: boolean }
  | { ok: false; reason: string };

export async function readBlueprintCopy(db: Db, blueprintId: string): Promise<BlueprintCopy> {
  const source = await getBlueprintSource(db, blueprintId);
  if (!source) return { ok: false, reason: `There is no blueprint "${blueprintId}" to copy.` };
  if (source.text === null) return { ok: false, reason: `${source.path} holds sealed test prompts that cannot be taken out with certainty (the file does not parse, or a YAML alias outside a sealed prompt repeats its text), so it cannot be copied: start from an example instead.` };
  return { ok: true, name: pathInBlueprints(source.path), yaml: source.text, sealedRemoved: !source.verbatim };
}

/**
 * The copy's suggested name, inside `blueprints/` where a pull request may put it: a file
 * synced from GitHub already has its repository path, one from a local folder
 * (ASSAY_BLUEPRINTS_DIR) its path in that folder.
 */
export function pathInBlueprints(path: string): string {
  return path.startsWith('blueprints/') ? path : `blueprints/${path.replace(/^\.?\//, '')}`;
}
