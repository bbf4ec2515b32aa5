/**
 * The untrusted-work pool with its real worker thread: answers equal the in-process parser's,
 * a task past its time limit is stopped with a message naming the task and the bound, and the
 * pool replaces the stopped worker so the next task is answered.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { hostileBlueprints, parseBlueprint } from '@/lib/core';
import { parseBlueprintBounded } from './parse-bounded';
import { redactSealedSource } from './sealed-source';
import { UNTRUSTED_POOL_DEFAULTS, UntrustedPool, UntrustedWorkStopped } from './untrusted-pool';

const GOOD = `title: Greetings
---
- id: hi
  prompt: Say hello
  should:
    - $icontains: hello
    - Is polite
`;

/** soev's `id_pattern` with nested quantifiers and a 28-character id: 17 s of backtracking on V8's engine. */
const SOEV_BACKTRACKING = `name: evil
id_pattern: "((?:a+)+)b"
cases:
  - id: ${'a'.repeat(28)}
    lineage: x
    category: x
    turns:
      - prompt: hi
    criteria:
      - kind: refusal.code
`;

const pool = new UntrustedPool({ ...UNTRUSTED_POOL_DEFAULTS, size: 1 });
afterAll(() => pool.close());

describe('untrusted-work pool', () => {
  it('answers what the parser answers in process, for a valid blueprint and a hostile soev suite', async () => {
    for (const [file, text] of [
      ['blueprints/hi.yml', GOOD],
      ['blueprints/evil.yml', SOEV_BACKTRACKING],
    ] as const) {
      expect(await pool.run('parse-blueprint', { text, file }, { what: `checking ${file}`, timeoutMs: 30_000 })).toEqual(parseBlueprint(text, { file }));
    }
  }, 60_000);

  it('answers what the source view shows in process, sealed prompts taken out', async () => {
    const text = GOOD.replace('- id: hi', '- id: secret\n  split: test\n  prompt: Sealed\n- id: hi');
    const shown = await pool.run('redact-sealed-source', { text, file: 'blueprints/hi.yml' }, { what: 'showing blueprints/hi.yml', timeoutMs: 30_000 });
    expect(shown).toBe(redactSealedSource(text, 'blueprints/hi.yml'));
    expect(shown).toMatch(/^# 1 sealed test prompt is hidden here/);
    expect(shown).not.toContain('Sealed');
  }, 60_000);

  it('stops a task past its time limit saying what and which bound, and answers the next task on a fresh worker', async () => {
    const heavy = hostileBlueprints.manyPoints(20_000);
    const stopped = await pool.run('parse-blueprint', { text: heavy, file: 'blueprints/heavy.yml' }, { what: 'checking blueprints/heavy.yml', timeoutMs: 1 }).catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(UntrustedWorkStopped);
    expect(stopped).toMatchObject({ reason: 'time', message: 'checking blueprints/heavy.yml stopped: it exceeded the limit of 1 ms' });
    expect(await pool.run('parse-blueprint', { text: GOOD, file: 'blueprints/hi.yml' }, { what: 'checking blueprints/hi.yml', timeoutMs: 30_000 })).toMatchObject({ ok: true });
  }, 60_000);

  it('parseBlueprintBounded turns a stopped parse into an invalid file whose one issue says why', async () => {
    const r = await parseBlueprintBounded(hostileBlueprints.manyPoints(20_000), { file: 'blueprints/heavy.yml', timeoutMs: 1, pool });
    expect(r).toMatchObject({ ok: false, errors: [{ code: 'limit', file: 'blueprints/heavy.yml', line: 1, col: 1, message: 'checking blueprints/heavy.yml stopped: it exceeded the limit of 1 ms' }] });
  }, 60_000);
});
