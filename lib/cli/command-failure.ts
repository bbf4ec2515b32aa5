import { AppError } from '@/lib/server/http/errors';

/**
 * The CLI's one mapping of domain errors to exit codes and messages: an AppError is the user's
 * to fix, so it is one line and exit 1 (2 is for usage errors, 3 for a run another worker
 * holds); anything else is a bug and is rethrown, for main's stack trace. Null: not ours to map.
 */
export function commandFailure(command: string, e: unknown): { exitCode: number; message: string } | null {
  if (e instanceof AppError) return { exitCode: 1, message: `assay ${command}: ${e.message}` };
  return null;
}

/**
 * The frame of a command that opens a database: `work` on what `open` gives, always closed
 * after, and a domain error printed as the command's own one-line error (commandFailure).
 */
export async function withOpened<T extends { close(): Promise<void> }>(command: string, open: () => Promise<T>, work: (opened: T) => Promise<number>): Promise<number> {
  const opened = await open();
  try {
    return await work(opened);
  } catch (e) {
    const failure = commandFailure(command, e);
    if (!failure) throw e;
    console.error(failure.message);
    return failure.exitCode;
  } finally {
    await opened.close();
  }
}
