/**
 * `writeInspectLogs`: a stored chat run as Inspect eval logs, one JSON file per model (an
 * Inspect log evaluates one model), so `inspect view DIR` and `inspect_ai.analysis.evals_df(DIR)`
 * read the run's models together. The mapping is docs/inspect-export.md.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../../db/client';
import { writeJsonLog } from './json-log-writer';
import { logHeader } from './log-header';
import { logSample, type SampleContext } from './log-sample';
import type { InspectSample } from './inspect-log';
import { logFileNames } from './names';
import { readModel, readReplyPages, readRunHeader, type ExportSource } from './read-run';

/** Writes `<runId>-<model slug>.json` per model of the run into `outDir` (made if missing); returns the paths written, in the run's model order. */
export async function writeInspectLogs(db: Db, runId: string, outDir: string): Promise<string[]> {
  const src = await readRunHeader(db, runId);
  await mkdir(outDir, { recursive: true });
  const names = logFileNames(runId, src.models);
  const written: string[] = [];
  for (const modelId of src.models) {
    const model = await readModel(db, src, modelId);
    const path = join(outDir, names.get(modelId)!);
    const ctx: SampleContext = { runId, blueprintId: src.run.blueprint.id, versionId: src.run.version.id, variants: model.totals.variants };
    await writeJsonLog(path, logHeader(src.run, model), samplesOf(db, src, modelId, ctx));
    written.push(path);
  }
  return written;
}

async function* samplesOf(db: Db, src: ExportSource, modelId: string, ctx: SampleContext): AsyncGenerator<InspectSample> {
  for await (const page of readReplyPages(db, src, modelId)) {
    for (const reply of page.replies) {
      const prompt = page.prompts.get(reply.promptKey);
      // a reply whose prompt the version no longer lists cannot be shown as a sample (no input)
      if (!prompt) throw new Error(`reply ${reply.id} answers prompt "${reply.promptKey}", which version ${ctx.versionId} does not hold: the run's stored data is inconsistent`);
      yield logSample(ctx, reply, prompt);
    }
  }
}
