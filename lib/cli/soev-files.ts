/** A soev project on disk for the CLI: its folder as the loader's file port, its system's URL from the environment. */
import { basename, dirname, sep } from 'node:path';
import { soevSystemSpec, type SoevProject } from '@/lib/core';
import { loadSoevProject, type LoadedSoevProject } from '@/lib/server/blueprints/soev-project';
import { folderFiles } from '@/lib/server/blueprints/confined-file';
import { soevSystemBaseUrl } from '@/lib/server/compose/soev-system';
import { displayPath } from './files';

/** Loads the project at `file`; `withSystem` reads the system's base URL from `system.url_env` (a run needs it, validate does not). */
export async function loadProjectFromDisk(file: string, withSystem: boolean): Promise<LoadedSoevProject & { folder: string; urlMissing: string | null; systemUrl: string | null }> {
  const folder = dirname(file);
  const shownFolder = displayPath(folder);
  const prefix = shownFolder === '.' || shownFolder === '' ? '' : `${shownFolder.split(sep).join('/')}/`;
  const load = (baseUrl: string | null) => loadSoevProject(folderFiles(folder), { projectPath: basename(file), prefix, baseUrl, soevSystemSpec });
  const first = await load(null);
  if (!withSystem || !first.project) return { ...first, folder, urlMissing: null, systemUrl: null };
  const url = soevSystemBaseUrl(first.project);
  if (!url) return { ...first, folder, urlMissing: first.project.system.url_env, systemUrl: null };
  return { ...(await load(url)), folder, urlMissing: null, systemUrl: url };
}

export function casesOf(project: LoadedSoevProject): number {
  return project.files.reduce((n, f) => n + (f.parsed.ok ? f.parsed.blueprint.prompts.length : 0), 0);
}

export { folderFiles };
export type { SoevProject };
