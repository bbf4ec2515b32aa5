/** A soev project on disk for the CLI: its folder as the loader's file port, its system's URL from the environment. */
import { readdir } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { soevSystemSpec, type SoevProject } from '@/lib/core';
import { isMissingFile, readConfinedText } from '@/lib/server/blueprints/confined-file';
import { loadSoevProject, type LoadedSoevProject, type ProjectFiles } from '@/lib/server/blueprints/soev-project';
import { soevSystemBaseUrl } from '@/lib/server/compose/soev-system';
import { displayPath } from './files';

export function folderFiles(folder: string): ProjectFiles {
  return {
    list: async () => (await readdir(folder, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => relative(folder, join(e.parentPath, e.name)).split(sep).join('/')),
    read: (path, maxBytes) => readConfinedText(folder, path, maxBytes).catch((e: unknown) => (isMissingFile(e) ? null : Promise.reject(e))),
  };
}

/** Loads the project at `file`; `withSystem` reads the system's base URL from `system.url_env` (a run needs it, validate does not). */
export async function loadProjectFromDisk(file: string, withSystem: boolean): Promise<LoadedSoevProject & { folder: string; urlMissing: string | null }> {
  const folder = dirname(file);
  const shownFolder = displayPath(folder);
  const prefix = shownFolder === '.' || shownFolder === '' ? '' : `${shownFolder.split(sep).join('/')}/`;
  const load = (baseUrl: string | null) => loadSoevProject(folderFiles(folder), { projectPath: basename(file), prefix, baseUrl, soevSystemSpec });
  const first = await load(null);
  if (!withSystem || !first.project) return { ...first, folder, urlMissing: null };
  const url = soevSystemBaseUrl(first.project);
  if (!url) return { ...first, folder, urlMissing: first.project.system.url_env };
  return { ...(await load(url)), folder, urlMissing: null };
}

export function casesOf(project: LoadedSoevProject): number {
  return project.files.reduce((n, f) => n + (f.parsed.ok ? f.parsed.blueprint.prompts.length : 0), 0);
}

export type { SoevProject };
