/**
 * The architecture rules of `npm run deps:check` (scripts/check-architecture.ts): the tree
 * holds all three, and each rule fails on a deliberately bad file added to the real tree.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { architectureProblems, configReadProblems, readSources, roomCycles, routeProblems, type Source } from './check-architecture';

const tree = readSources();
const onDisk = (p: string) => existsSync(p);

describe('the architecture check', () => {
  it('passes on the tree as it is', () => {
    expect(architectureProblems()).toEqual([]);
  });
});

describe('configuration is read only in the composition root', () => {
  const bad: Source = {
    path: 'lib/server/runs/bad-wiring.ts',
    text: [
      "import { env, type Env } from '../env';",
      "import { databaseUrl } from '@/lib/server/env';",
      'export const key = process.env.OPENAI_API_KEY;',
      "export const judges = process.env['ASSAY_JUDGES'];",
      'export const all = () => ({ ...process.env });',
      'export const url = () => env().ASSAY_PUBLIC_URL + databaseUrl();',
    ].join('\n'),
  };

  it('fails on a use case that reads env(), databaseUrl() or process.env', () => {
    const problems = configReadProblems([...tree, bad]);
    expect(problems).toHaveLength(5);
    expect(problems.every((p) => p.startsWith('lib/server/runs/bad-wiring.ts:'))).toBe(true);
    expect(problems.join('\n')).toMatch(/:1: imports env\(\) from \.\.\/env/);
    expect(problems.join('\n')).toMatch(/:2: imports databaseUrl\(\)/);
    expect(problems.join('\n')).toMatch(/:3: reads process\.env\.OPENAI_API_KEY/);
    expect(problems.join('\n')).toMatch(/:4: reads process\.env\['ASSAY_JUDGES'\]/);
  });

  it('lets the root, tests, test kits, runtime facts, type imports and comments be', () => {
    const fine: Source[] = [
      { path: 'lib/server/compose/new-adapter.ts', text: "import { env } from '../env';\nexport const x = () => env().PORT + (process.env.X ?? '');" },
      { path: 'lib/server/platform.ts', text: "import { env } from './env';\nexport const y = () => env();" },
      { path: 'lib/server/runs/bad-wiring.test.ts', text: 'process.env.ASSAY_TEST_DB;' },
      { path: 'lib/server/runs/runs.testkit.ts', text: 'export const e = { ...process.env };' },
      { path: 'lib/server/runs/grading.ts', text: "export const worker = process.env.NEXT_RUNTIME ? 'a' : 'b';\nexport const dev = process.env.NODE_ENV;" },
      { path: 'lib/server/runs/typed.ts', text: "import type { Env } from '../env';\nimport { type Env as E } from '../env';\n/** reads process.env (a comment) */\n// env() in a comment\nexport type T = Env | E;" },
    ];
    expect(configReadProblems(fine)).toEqual([]);
  });

  it('names each exception with its reason, and an exception stops being one when removed', () => {
    const sync = tree.find((s) => s.path === 'lib/cli/commands/sync.ts');
    if (sync && /\benv\(\)/.test(sync.text)) expect(configReadProblems([sync], {})).not.toEqual([]);
    expect(configReadProblems([{ path: 'scripts/launch.ts', text: 'process.env.PORT' }], {})).toHaveLength(1);
  });
});

describe('no import cycle between the rooms of lib/server', () => {
  it('catches runs -> jobs -> runs when a run file imports the job client again', () => {
    const bad: Source = { path: 'lib/server/runs/dispatch-inngest.ts', text: "import { inngest } from '../jobs/client';\nexport const send = inngest.send;" };
    const cycles = roomCycles([...tree, bad], onDisk);
    const pair = cycles.find((c) => /^import cycle between rooms of lib\/server: (runs -> jobs -> runs|jobs -> runs -> jobs)\n/.test(c));
    expect(pair).toContain('lib/server/runs/dispatch-inngest.ts imports ../jobs/client');
    // and every cycle it makes goes through the bad file's edge
    for (const c of cycles) expect(c).toContain('runs -> jobs');
  });

  it('catches github -> jobs -> github through an alias import and a type import', () => {
    const bad: Source = { path: 'lib/server/github/send-events.ts', text: "import type { EventPayload } from '@/lib/server/jobs/events';\nexport type P = EventPayload;" };
    const cycles = roomCycles([...tree, bad], onDisk);
    expect(cycles.join('\n')).toMatch(/github -> jobs -> github|jobs -> github -> jobs/);
  });

  it('finds longer cycles, and none in a chain', () => {
    const files = (specs: [string, string][]): Source[] => specs.map(([path, to]) => ({ path, text: `import { x } from '${to}';` }));
    const exists = (p: string) => /^lib\/server\/[a-c]\/[a-c]\.ts$/.test(p);
    const ring = files([
      ['lib/server/a/a.ts', '../b/b'],
      ['lib/server/b/b.ts', '../c/c'],
      ['lib/server/c/c.ts', '../a/a'],
    ]);
    expect(roomCycles(ring, exists)).toEqual([expect.stringMatching(/a -> b -> c -> a/)]);
    expect(roomCycles(ring.slice(0, 2), exists)).toEqual([]);
    // imports inside tests do not count
    expect(roomCycles([...ring.slice(0, 2), { path: 'lib/server/c/c.test.ts', text: "import { x } from '../a/a';" }], exists)).toEqual([]);
  });
});

describe('every API route goes through route()', () => {
  it('fails on a handler written by hand, passes route() and the listed exception', () => {
    const bad: Source = { path: 'app/api/runs/[runId]/other/route.ts', text: "export async function GET(req: Request) {\n  return Response.json({ error: 'No run.' }, { status: 404 });\n}" };
    const alsoBad: Source = { path: 'app/api/x/route.ts', text: 'export const POST = async () => new Response(null);' };
    const good: Source = { path: 'app/api/y/route.ts', text: "import { route } from '@/lib/server/http';\nexport const GET = route({ response: z.null() }, async () => null);" };
    expect(routeProblems([...tree, bad, alsoBad, good])).toEqual([
      expect.stringMatching(/^app\/api\/runs\/\[runId\]\/other\/route\.ts:1: GET is not built with route\(\)/),
      expect.stringMatching(/^app\/api\/x\/route\.ts:1: POST is not built with route\(\)/),
    ]);
    const inngest = tree.find((s) => s.path === 'app/api/inngest/route.ts')!;
    expect(routeProblems([inngest], {})).toHaveLength(3);
  });
});
