/**
 * A soev project's suites stored as blueprints, one per suite file, each parsed with the
 * project's context (its invariants, system under test, citations, runs.k, and the suite's
 * title and description from `extensions.assay.suites`). Used by `assay run PROJECT.yml` and by
 * the demo, so both store a suite the same way.
 *
 * The stored text is the suite file with one closing comment naming the project file, its
 * hash and the system the suite calls. A version's identity is its text (versions are
 * deduplicated by content hash), and what runs depends on all three: without them, a run after
 * the project changed, or with the system at another address, would reuse the old version and
 * call the old system.
 */
import { posix } from 'node:path';
import { blueprintIdFromPath, sha256Hex } from '@/lib/core';
import type { Db } from '../db/client';
import { storeBlueprintVersion } from '../db/commands/store-blueprint-version';
import type { LoadedSoevProject } from './soev-project';

export interface StoredSuite {
  suite: string;
  blueprintId: string;
  versionId: string;
}

export interface ProjectPlace {
  /** The project's folder as blueprint paths are written in the source (`soev-example`), '' at its root. */
  folder: string;
  /** The project file's name and text: their hash goes into each suite's stored text. */
  projectFile: string;
  projectText: string;
  /** The system's base URL the suites were parsed with, or null. */
  systemUrl: string | null;
}

/** The text a suite is stored under: the file as written, then the closing comment (see the file's header). */
export function storedSuiteText(suiteText: string, place: ProjectPlace): string {
  const hash = sha256Hex(place.projectText).slice(0, 16);
  const system = place.systemUrl ? ` against ${place.systemUrl}` : '';
  return `${suiteText.replace(/\n?$/, '\n')}# assay: run with the soev project ${place.projectFile} (sha256 ${hash}…)${system}\n`;
}

/** Stores every suite file of a loaded project, in the project's order; the caller has checked that the project is valid. */
export async function storeSoevSuites(db: Db, sourceId: string, loaded: Extract<LoadedSoevProject, { ok: true }>, place: ProjectPlace): Promise<StoredSuite[]> {
  const out: StoredSuite[] = [];
  for (const file of loaded.files) {
    const path = place.folder ? posix.join(place.folder, file.path) : file.path;
    const blueprintId = blueprintIdFromPath(path);
    const { versionId } = await storeBlueprintVersion(db, sourceId, blueprintId, { path, rawText: storedSuiteText(file.text, place), sourceCommit: null, blobSha: null }, file.parsed);
    out.push({ suite: file.suite, blueprintId, versionId });
  }
  return out;
}
