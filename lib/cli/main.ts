/**
 * `assay <command>`: the CLI for authors and CI, over the same core and server adapters
 * as the app. Each command lives in its own module and returns an exit code.
 */
import { createRedactor, knownSecrets, redactConsole } from '@/lib/server/secret-redactor';

type Command = (args: string[]) => Promise<number>;

// Each command is loaded when it runs: `validate` and `check` need no database client, and
// loading one (Prisma, server adapters) would slow every invocation in CI and editors.
const COMMANDS: Record<string, { run: Command; summary: string }> = {
  validate: {
    run: async (args) => (await import('./commands/validate')).validateCommand(args),
    summary: 'check blueprint files (errors as file:line:col); --json prints them normalised',
  },
  check: { run: async (args) => (await import('./commands/check')).checkCommand(args), summary: 'grade one point against one reply (or a JSONL stream of them)' },
  schema: { run: async (args) => (await import('./commands/schema')).schemaCommand(args), summary: 'print the JSON Schema of the blueprint format, for editors' },
  run: {
    run: async (args) => {
      await gradingEarly(args);
      return (await import('./commands/run')).runCommand(args);
    },
    summary: 'run a blueprint against models, storing every reply and verdict (--resume continues one)',
  },
  rescore: {
    run: async (args) => {
      await gradingEarly(args);
      return (await import('./commands/rescore')).rescoreCommand(args);
    },
    summary: 're-grade a stored run with other judges or a changed rubric, calling no model (a new, linked run)',
  },
  export: {
    run: async (args) => (await import('./commands/export')).exportCommand(args),
    summary: "write a run's verdicts, replies or attempt scores as JSONL or CSV, or as Inspect eval logs (streamed: any size)",
  },
  sync: { run: async (args) => (await import('./commands/sync')).syncCommand(args), summary: 'store the blueprints of the configured source in the database' },
  retrieval: {
    run: async (args) => (await import('./commands/retrieval')).retrievalCommand(args),
    summary: 'score a TREC run file against qrels with trec_eval\'s metrics (retrieval score --qrels FILE --run FILE)',
  },
  split: {
    run: async (args) => (await import('./commands/split')).splitCommand(args),
    summary: 'put each case on the dev or test (sealed) side by lineage, stratified, and write split: into the files (--patch prints a diff)',
  },
  migrate: {
    run: async (args) => (await import('./commands/migrate')).migrateCommand(args),
    summary: 'make the database ready (a new embedded data directory created, migrations applied) and stop',
  },
  plan: {
    run: async (args) => (await import('./commands/plan')).planCommand(args),
    summary: 'the sample-size planner: a blueprint’s minimum detectable difference, and the prompts a chosen one needs',
  },
};

/** The grading worker starts loading now, beside the command's own modules (compose/early-grading.ts); not for `--help`. */
async function gradingEarly(args: string[]): Promise<void> {
  if (args.includes('--help') || args.includes('-h')) return;
  (await import('@/lib/server/compose/early-grading')).startGradingPoolEarly();
}

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return `usage: assay <command> [options]\n\ncommands:\n${lines.join('\n')}\n\nRun 'assay <command> --help' for a command's options.`;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    // asked for, the usage is the product (standard output); without a command it is an error
    if (name) console.log(usage());
    else console.error(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`assay: unknown command "${name}"\n\n${usage()}`);
    return 2;
  }
  // What the CLI prints (reports read back from the database, provider and database errors,
  // a crash's stack) goes through the secret redactor, as the app's logs do: a row stored
  // before redaction existed, or an error that quotes a key, must not reach a terminal or CI log.
  redactConsole(console as never, createRedactor(knownSecrets(process.env)));
  try {
    return await command.run(rest);
  } catch (e) {
    console.error('assay: unexpected error:', e);
    return 1;
  }
}
