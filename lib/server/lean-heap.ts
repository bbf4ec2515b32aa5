/**
 * V8 lets a busy process's old generation grow to several times what is live before it
 * collects (the growing factor rises with the allocation rate, up to 4×): an `assay run` whose
 * live heap is ~80 MB sat at a 250 MB heap, 500 MB resident. Capping the factor at 2× (it is
 * read at each collection, so it can be set after start-up) took that run to ~375 MB for
 * about as much CPU (docs/limits.md, "Memory"). Not a limit: a bigger run still gets the heap
 * it needs. Called first thing by the long-running entry points (the CLI, the launcher).
 */
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 100;

export function leanHeap(): void {
  // a flag given on the command line wins
  if (process.execArgv.some((a) => a.startsWith('--heap-growing-percent'))) return;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

/**
 * For a command that streams (`assay export`): it holds a batch of rows live at a time and makes
 * garbage fast, so even leanHeap's 2× let the old generation swell with dead batches: collecting
 * at 1.3× what is live kept a 100,000-verdict CSV export's peak at ~95 MB instead of ~101 MB
 * (bench/export.bench.ts) for the same time. A flag given on the command line wins.
 */
export const STREAMING_HEAP_GROWING_PERCENT = 30;

export function streamingHeap(): void {
  if (process.execArgv.some((a) => a.startsWith('--heap-growing-percent'))) return;
  setFlagsFromString(`--heap-growing-percent=${STREAMING_HEAP_GROWING_PERCENT}`);
}
