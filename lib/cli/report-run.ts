/**
 * Prints a finished run's report (run-report.ts) and writes `--json`; returns the exit status.
 * The report is the command's product, so it goes to standard output (`assay run … > out.txt`
 * keeps it); its warnings and errors go to standard error. With `--json -` standard output is
 * the JSON document alone, for a pipe to parse, and the report goes to standard error instead.
 */
import { humanFiguresKey, replySourceOf } from '@/lib/core';
import { readHumanFigures } from '@/lib/server/db/queries/human-figures';
import { judgedCheckLine } from '@/lib/views/human-figures-view';
import { writeFile } from 'node:fs/promises';
import type { Db } from '@/lib/server/db/client';
import { runResults } from '@/lib/server/runs/chat/results';
import { runErrors } from '@/lib/server/runs/chat/run-errors';
import { createRedactor, processSecrets, redactDeep } from '@/lib/server/secret-redactor';
import { runReport } from './run-report';
import { getRunJudgeMethods } from '@/lib/server/db/queries/run-judge-methods';
import { retrievalResultsDocument } from '@/lib/server/runs/retrieval/results-document';
import { retrievalReport } from './retrieval-report';

export async function reportRun(db: Db, runId: string, publicUrl: string, json: string | undefined): Promise<number> {
  if ((await db.run.findUniqueOrThrow({ where: { id: runId }, select: { kind: true } })).kind === 'retrieval') return reportRetrievalRun(db, runId, publicUrl, json);
  const doc = await runResults(db, runId);
  const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { trigger: true, parentRunId: true, blueprintId: true } });
  const errors = await runErrors(db, runId, { replyRunId: replySourceOf({ id: runId, ...run }) });
  const report = runReport(doc, errors, publicUrl, await getRunJudgeMethods(db, runId), await humanCheck(db, run.blueprintId));
  printReport(report, json);
  await writeJson(doc, json);
  return report.exitCode;
}

/** The blueprint's judges checked against people, as stored; null where no one has labelled its verdicts. */
async function humanCheck(db: Db, blueprintId: string) {
  const key = humanFiguresKey.blueprint(blueprintId);
  const figures = (await readHumanFigures(db, [key])).get(key);
  return judgedCheckLine(figures?.kind === 'calibration' ? figures : null);
}

async function reportRetrievalRun(db: Db, runId: string, publicUrl: string, json: string | undefined): Promise<number> {
  const doc = await retrievalResultsDocument(db, runId);
  const report = retrievalReport(doc, publicUrl);
  printReport(report, json);
  await writeJson(doc, json);
  return report.exitCode;
}

/** Through the console, which main.ts redacts: a stored error may quote a key. */
function printReport(report: { lines: string[]; warnings: string[] }, json: string | undefined): void {
  const print = json === '-' ? console.error : console.log;
  for (const line of report.lines) print(line);
  for (const line of report.warnings) console.error(line);
}

async function writeJson(doc: unknown, json: string | undefined): Promise<void> {
  if (!json) return;
  // the console is redacted (main.ts), this bypasses it: each value redacted, so the JSON stays valid
  const text = `${JSON.stringify(redactDeep(doc, createRedactor(processSecrets())), null, 2)}\n`;
  if (json === '-') process.stdout.write(text);
  else await writeFile(json, text);
}
