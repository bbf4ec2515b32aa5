/**
 * Issue 11, finding 1: YAML alias/merge expansion was unbounded (a 469-byte file froze the
 * server for 62 s and grew it by 1.4 GB). The loader now counts values and alias uses while
 * it expands aliases and merges, and stops at the first one past a limit, naming the alias.
 * (The server half, a worker, is validate-pull-request.security.db.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { ALIAS_BOMB_469, MERGE_BOMB_631 } from './hostile-blueprints';
import { BLUEPRINT_LIMITS } from './limits';
import { parseBlueprint } from './parse';

/** Wall-clock and CPU time: the bound is on CPU, which other test files running alongside do not inflate. */
function timed(text: string) {
  const heap = process.memoryUsage().heapUsed;
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const result = parseBlueprint(text, { file: 'bomb.yml' });
  const used = process.cpuUsage(cpu);
  return { result, ms: performance.now() - t0, cpuMs: (used.user + used.system) / 1000, heapMb: (process.memoryUsage().heapUsed - heap) / 1e6 };
}

describe('alias and merge-key expansion bombs', () => {
  it('the files are the sizes of the red-team pass', () => {
    expect(new TextEncoder().encode(ALIAS_BOMB_469).length).toBe(469);
    expect(new TextEncoder().encode(MERGE_BOMB_631).length).toBe(631);
  });

  it.each([
    ['469-byte nested anchors', ALIAS_BOMB_469, '*e', 7],
    ['631-byte merge keys', MERGE_BOMB_631, '*m4', 7],
  ])('rejects the %s bomb in under a second, at the alias, naming the limit', (_name, text, alias, line) => {
    const { result, ms, cpuMs, heapMb } = timed(text);
    console.log(`${_name}: rejected in ${ms.toFixed(0)} ms (${cpuMs.toFixed(0)} ms CPU), heap +${heapMb.toFixed(0)} MB`);
    expect(cpuMs).toBeLessThan(1000);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(1);
    const [error] = result.errors;
    expect(error).toMatchObject({ code: 'limit', line, file: 'bomb.yml' });
    expect(error!.col).toBeGreaterThan(1);
    expect(error!.message).toContain(`while expanding the alias \`${alias}\``);
    expect(error!.message).toContain(BLUEPRINT_LIMITS.maxNodes.toLocaleString('en-US'));
    expect(error!.hint).toContain('docs/limits.md');
  });

  it('still expands ordinary aliases and merges', () => {
    const result = parseBlueprint('base: &b {weight: 2}\nprompts:\n  - <<: *b\n    prompt: hi\n    should: [x]\n  - prompt: &p again\n    should: [*p]\n', { file: 'ok.yml' });
    expect(result.ok && result.blueprint.prompts.map((p) => [p.weight, p.points[0]!.text])).toEqual([[2, 'x'], [1, 'again']]);
  });

  it('stops alias chains that nest deeper than the depth limit', () => {
    const chain = ['a0: &a0 [x]', ...Array.from({ length: 80 }, (_, i) => `a${i + 1}: &a${i + 1} [*a${i}]`), 'prompts:', '  - prompt: hi'].join('\n');
    const result = parseBlueprint(chain, { file: 'chain.yml' });
    expect(!result.ok && result.errors[0]).toMatchObject({ code: 'limit', message: expect.stringContaining(`nested more than ${BLUEPRINT_LIMITS.maxDepth} deep while expanding the alias`) });
  });

  it('counts alias uses across the whole file, each expansion included', () => {
    const text = 'x: &x [1]\n' + Array.from({ length: 20 }, (_, i) => `k${i}: [*x, *x, *x, *x, *x]`).join('\n') + '\nprompts:\n  - prompt: hi\n';
    const result = parseBlueprint(text, { file: 'many.yml', limits: { ...BLUEPRINT_LIMITS, maxAliases: 50 } });
    expect(!result.ok && result.errors[0]).toMatchObject({ code: 'limit', line: 12, message: expect.stringContaining('more than 50 alias uses') });
  });

  it('rejects an alias bomb or deep nesting written inside a function string\'s argument, rather than throwing', () => {
    const bomb = '[&a [x,x,x,x,x,x,x,x,x], &b [*a,*a,*a,*a,*a,*a,*a,*a,*a], &c [*b,*b,*b,*b,*b,*b,*b,*b,*b], &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]]';
    const cases: [string, string][] = [
      [bomb, 'Excessive alias count indicates a resource exhaustion attack'],
      ['['.repeat(5_000) + ']'.repeat(5_000), `lists and mappings are nested more than ${BLUEPRINT_LIMITS.maxDepth} deep here (at character ${BLUEPRINT_LIMITS.maxDepth + 1} of the argument)`],
    ];
    for (const [arg, message] of cases) {
      const result = parseBlueprint(`prompts:\n  - prompt: hi\n    should:\n      - '$contains_any_of: ${arg}'\n`, { file: 'fn.yml' });
      expect(!result.ok && result.errors.map((e) => [e.line, e.col, e.message.includes(message)])).toEqual([[4, 9, true]]);
    }
  });
});
