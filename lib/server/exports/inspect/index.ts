/** Export a stored run as Inspect eval logs (docs/inspect-export.md). */
export { writeInspectLogs } from './write-inspect-logs';
export { RunNotExportableError } from './read-run';
export { logHeader, inspectStatus, ASSAY_SCORER, type RunForExport, type ModelForExport } from './log-header';
export { logSample, type ReplyForExport, type PromptForExport, type SampleContext } from './log-sample';
export type { InspectLogHeader, InspectSample } from './inspect-log';
