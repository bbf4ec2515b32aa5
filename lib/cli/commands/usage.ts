/** The one way a command reports a usage error: what was wrong, its usage, exit status 2. */
export function usageError(command: string, message: string, usage: string): number {
  console.error(`assay ${command}: ${message}\n\n${usage}`);
  return 2;
}
