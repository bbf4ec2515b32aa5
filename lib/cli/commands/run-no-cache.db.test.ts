/**
 * `assay run --no-cache` samples every call afresh (issue 15): the response cache is not read,
 * so neither a response cached by an earlier run nor an identical call made earlier in the
 * same run is reused. A prompt's `noCache: true` does the same for that prompt's replies.
 * Through the real run path (a child process, a real database) against the fake provider,
 * whose request count is compared with the calls each run recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { assay as runAssay } from '@/lib/cli/cli.testkit';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';

let dir: string;
let t: TestDatabase;
let fake: FakeLlm;

// `first` and `second` ask the same model the same thing: identical calls within one run,
// and their judge calls are identical too. `own` opts out of the cache itself.
const BLUEPRINT = `title: No cache
models: [openai:alpha]
---
- id: first
  prompt: Say hello.
  should:
    - Greets the user
- id: second
  prompt: Say hello.
  should:
    - Greets the user
- id: own
  prompt: Say goodbye.
  noCache: true
  should:
    - $icontains: bye
`;

const assay = (args: string[]) => runAssay(args, undefined, { DATABASE_URL: t.url, ASSAY_LLM_BASE_URL: fake.url });

/** Runs the blueprint; what the fake received meanwhile and what the run recorded. */
async function run(...flags: string[]) {
  const before = fake.requests().length;
  const r = await assay(['run', join(dir, 'no-cache.yml'), '--judges', 'openai:judge', '--concurrency', '1', '--quiet', ...flags]);
  expect(r.code, r.stderr).toBe(0);
  const latest = await t.db.run.findFirstOrThrow({ orderBy: { createdAt: 'desc' }, select: { providerCalls: true, cacheHits: true } });
  const received = fake.requests().slice(before);
  const hellos = received.filter((q) => q.request.model === 'alpha' && q.request.messages.at(-1)?.content === 'Say hello.').length;
  return { ...latest, received: received.length, hellos };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assay-no-cache-'));
  await writeFile(join(dir, 'no-cache.yml'), BLUEPRINT);
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: [{ model: 'judge', judge: { labels: { E: 1 } } }, { model: 'alpha', reply: 'Hello, and goodbye!' }] });
});
afterAll(async () => {
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
  await t?.close();
});

describe(`assay run --no-cache (${process.env.ASSAY_TEST_DB})`, () => {
  it('reuses cached responses without it, except for a noCache prompt; samples every call with it, identical ones included', { timeout: 120_000 }, async () => {
    const first = await run();
    // Every call the run needed was either made (and received by the fake) or a cache hit.
    expect(first.received).toBe(first.providerCalls);
    const needed = first.providerCalls + first.cacheHits;
    expect(needed).toBeGreaterThanOrEqual(5); // 3 replies and at least one judge call per judged point

    // Again, with the cache: everything is reused but the `noCache: true` prompt's reply.
    const cached = await run();
    expect(cached).toMatchObject({ providerCalls: 1, cacheHits: needed - 1, received: 1, hellos: 0 });

    // --no-cache: every call made, none reused, not even the identical ones within the run.
    const fresh = await run('--no-cache');
    expect(fresh).toMatchObject({ providerCalls: needed, cacheHits: 0, received: needed, hellos: 2 });
  });
});
