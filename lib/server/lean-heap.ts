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
