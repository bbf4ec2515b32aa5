/**
 * The sandbox must contain hostile blueprint code: no way to the host (process, require,
 * the host's Function constructor, dynamic import), no endless loop, memory bomb or deep
 * recursion that escapes its limits. Each attempt ends as an error outcome with a clear
 * message, and a normal evaluation afterwards still works (the test process is unharmed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluatePoint } from './evaluate';
import { resolvePointFunction } from './registry';
import { createQuickJsSandbox, type QuickJsSandbox } from './sandbox/quickjs';
import { SandboxError, type FnOutcome } from './types';

let sandbox: QuickJsSandbox;
beforeAll(async () => {
  sandbox = await createQuickJsSandbox({ timeoutMs: 250 });
});
afterAll(() => sandbox.dispose());

async function js(code: string, response = 'hello world'): Promise<FnOutcome> {
  const resolved = resolvePointFunction('js');
  if (!resolved.ok) throw new Error(resolved.message);
  return evaluatePoint(resolved, response, code, { sandbox, modelId: 'm', messages: [{ role: 'user', content: 'hi' }] });
}

function runError(code: string): SandboxError {
  try {
    sandbox.run(code, {});
  } catch (error) {
    if (error instanceof SandboxError) return error;
    throw error;
  }
  throw new Error(`expected ${code} to fail`);
}

/** After every hostile script, an ordinary one must still evaluate. */
async function expectStillWorks(): Promise<void> {
  await sandbox.ready();
  expect(await js('r.length === 11')).toEqual({ score: 1, detail: 'js returned true' });
}

const hostile: { name: string; code: string; error: RegExp; kind: SandboxError['kind'] }[] = [
  { name: 'process', code: 'process.exit(1)', error: /'process' is not defined/, kind: 'runtime' },
  { name: 'process.env', code: 'process.env.DATABASE_URL.length > 0', error: /'process' is not defined/, kind: 'runtime' },
  { name: 'require', code: "require('child_process').execSync('id')", error: /'require' is not defined/, kind: 'runtime' },
  { name: 'globalThis.constructor', code: "globalThis.constructor.constructor('return process')().exit(1)", error: /'process' is not defined/, kind: 'runtime' },
  { name: "Function('return this')()", code: "Function('return this')().process.exit(1)", error: /TypeError/, kind: 'runtime' },
  { name: "this.constructor.constructor('return process')()", code: "this.constructor.constructor('return process')()", error: /'process' is not defined/, kind: 'runtime' },
  { name: 'dynamic import()', code: "import('node:fs')", error: /Promise/, kind: 'result' },
  { name: 'static import', code: "import fs from 'node:fs'; fs.readFileSync('/etc/passwd')", error: /SyntaxError/, kind: 'syntax' },
  { name: 'fetch', code: "fetch('http://169.254.169.254/')", error: /'fetch' is not defined/, kind: 'runtime' },
  { name: 'endless loop', code: 'while(true){}', error: /time limit/, kind: 'timeout' },
  { name: 'endless loop hidden in a getter read while serialising', code: '({ get score() { while (true) {} } })', error: /time limit/, kind: 'timeout' },
  { name: 'catastrophic regex backtracking', code: '/(a+)+$/.test("a".repeat(40) + "b")', error: /time limit/, kind: 'timeout' },
  { name: 'memory bomb: growing array', code: 'const a = []; while (true) a.push(new Array(10000).fill(1.5))', error: /memory/, kind: 'memory' },
  { name: 'memory bomb: growing strings', code: 'const a = []; while (true) a.push("x".repeat(1e6) + a.length)', error: /memory/, kind: 'memory' },
  { name: 'memory bomb: doubling string', code: 'let s = "x"; while (true) s += s', error: /too large|memory/, kind: 'memory' },
  { name: 'memory bomb: one huge allocation', code: 'new Uint8Array(200 * 1024 * 1024)', error: /memory/, kind: 'memory' },
  { name: 'deep recursion', code: 'function f(n) { return f(n + 1) + 1 } f(0)', error: /stack overflow/, kind: 'stack' },
  { name: 'deep recursion through natives', code: 'function g() { return [1].map(g) } g()', error: /stack overflow/, kind: 'stack' },
  { name: 'deeply nested generated source', code: 'eval("(".repeat(20000) + "1" + ")".repeat(20000))', error: /stack overflow/, kind: 'stack' },
];

describe('quickjs sandbox: hostile code is contained', () => {
  it.each(hostile)('$name', async ({ code, error, kind }) => {
    const outcome = await js(code);
    expect(outcome).toHaveProperty('error');
    expect((outcome as { error: string }).error).toMatch(error);
    await sandbox.ready();
    expect(runError(code).kind).toBe(kind);
    await expectStillWorks();
  });

  it('sees no host globals', () => {
    const seen = sandbox.run(
      "['process', 'require', 'module', 'global', 'Buffer', 'fetch', 'XMLHttpRequest', 'setTimeout', 'setInterval', 'queueMicrotask', 'console', 'WebAssembly', 'Atomics'].filter((name) => typeof globalThis[name] !== 'undefined')",
      {},
    );
    expect(seen).toEqual([]);
  });

  it('keeps no state between runs', () => {
    sandbox.run('globalThis.leak = 1; Object.prototype.polluted = true; JSON.stringify = () => "{}"; 0', {});
    expect(sandbox.run('[typeof leak, typeof ({}).polluted, JSON.stringify({ a: 1 })]', {})).toEqual(['undefined', 'undefined', '{"a":1}']);
  });

  it('cannot forge its result by replacing JSON in the guest', () => {
    expect(sandbox.run('JSON.stringify = () => \'{"score":1}\'; ({ score: 0.25 })', {})).toEqual({ score: 0.25 });
  });

  it('passes inputs as data, not code', () => {
    const tricky = '"); process.exit(1); ("\u2028\u2029 ☃ 𝄞';
    expect(sandbox.run('r', { r: tricky })).toBe(tricky);
    expect(sandbox.run('input.nested[0].x', { input: { nested: [{ x: 'y' }] } })).toBe('y');
  });

  it('keeps NaN and ±Infinity visible inside a returned object', () => {
    expect(sandbox.run('({ score: 0 / 0, hi: 1 / 0, lo: -1 / 0, ok: 0.5 })', {})).toEqual({ score: Number.NaN, hi: Number.POSITIVE_INFINITY, lo: Number.NEGATIVE_INFINITY, ok: 0.5 });
  });

  it('refuses results that are not JSON', () => {
    expect(runError('(() => 1)').kind).toBe('result');
    expect(runError('Symbol("x")').kind).toBe('result');
    expect(runError('10n').kind).toBe('result');
    expect(runError('const o = {}; o.self = o; o').kind).toBe('runtime');
  });

  it('reports syntax errors as syntax', () => {
    expect(runError('r ===').kind).toBe('syntax');
  });

  it('is deterministic: frozen clock, seeded Math.random', () => {
    const first = sandbox.run('[Date.now(), new Date().toISOString(), Math.random(), Math.random()]', {});
    const second = sandbox.run('[Date.now(), new Date().toISOString(), Math.random(), Math.random()]', {});
    expect(first).toEqual(second);
    expect((first as unknown[])[1]).toBe('2025-01-01T00:00:00.000Z');
    expect(sandbox.run('new Date(0).toISOString()', {})).toBe('1970-01-01T00:00:00.000Z');
    expect(sandbox.run('new Date() instanceof Date', {})).toBe(true);
  });

  it('uses the injected clock for its deadline', async () => {
    let now = 0;
    const ticking = await createQuickJsSandbox({ timeoutMs: 1_000, now: () => (now += 100) });
    try {
      const started = Date.now();
      expect(() => ticking.run('while(true){}', {})).toThrow(/time limit/);
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      ticking.dispose();
    }
  });

  it('honours per-run limits', () => {
    expect(() => sandbox.run('let i = 0; while (true) i++', {}, { timeoutMs: 20 })).toThrow(/time limit/);
    expect(() => sandbox.run('new Array(5e6).fill(0).map((x, i) => ({ i }))', {}, { memoryBytes: 4 * 1024 * 1024 })).toThrow(/memory/);
  });

  it('refuses to run after dispose', async () => {
    const disposable = await createQuickJsSandbox();
    disposable.dispose();
    expect(() => disposable.run('1', {})).toThrow(/disposed/);
  });

  it('leaves the test process unharmed', async () => {
    expect(typeof process.exit).toBe('function');
    expect((globalThis as { leak?: unknown }).leak).toBeUndefined();
    await expectStillWorks();
  });
});
