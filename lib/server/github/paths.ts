/** Where things live in a blueprint repository (as in weval-org/configs). */
import { blueprintIdFromPath } from '@/lib/core';

const BLUEPRINTS_DIR = 'blueprints/';
const BLUEPRINT_FILE = /\.(ya?ml|json)$/i;
const COLLECTION_FILE = /^models\/[^/]+\.json$/;

/** `blueprints/a/b.yml` → true; READMEs, `.gitkeep` and files outside `blueprints/` → false. */
export function isBlueprintPath(path: string): boolean {
  return path.startsWith(BLUEPRINTS_DIR) && BLUEPRINT_FILE.test(path);
}

export function isCollectionPath(path: string): boolean {
  return COLLECTION_FILE.test(path);
}

/** The blueprint id from its repository path, relative to `blueprints/` as Weval does (`blueprints/a/b.yml` → `a__b`). */
export function blueprintIdOf(path: string): string {
  return blueprintIdFromPath(path.slice(BLUEPRINTS_DIR.length));
}

/** The folders Assay reads from a repository: a huge repository's tree is walked only there. */
export const ASSAY_FOLDERS: readonly string[] = [BLUEPRINTS_DIR, 'models/'];
