import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The one way a command reports a usage error: what was wrong, its usage, exit status 2. */
export function usageError(command: string, message: string, usage: string): number {
  console.error(`assay ${command}: ${message}\n\n${usage}`);
  return 2;
}

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

type CommandConfig = { options: NonNullable<ParseArgsConfig['options']>; allowPositionals?: boolean };
type WithHelp<C extends CommandConfig> = { args: string[]; options: C['options'] & typeof HELP; allowPositionals: C['allowPositionals'] extends true ? true : false; strict: true };
export type ParsedCommand<C extends CommandConfig> = ReturnType<typeof parseArgs<WithHelp<C>>>;

/**
 * Every command's argument preamble: parse `argv` against the command's options (and `-h`,
 * `--help`); a parse error is a usage error (exit 2), `--help` prints the usage (exit 0).
 * Returns the parsed arguments, or the exit status when the command has nothing left to do.
 */
export function parseCommandArgs<const C extends CommandConfig>(command: string, usage: string, argv: string[], config: C): ParsedCommand<C> | number {
  let parsed: ParsedCommand<C>;
  try {
    const full = { args: argv, options: { ...config.options, ...HELP }, allowPositionals: config.allowPositionals === true, strict: true } satisfies ParseArgsConfig;
    parsed = parseArgs(full) as ParsedCommand<C>;
  } catch (error) {
    return usageError(command, (error as Error).message, usage);
  }
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage);
    return 0;
  }
  return parsed;
}
