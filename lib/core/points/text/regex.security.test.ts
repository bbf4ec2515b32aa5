/**
 * Issue 11, finding 2 (ReDoS): a blueprint's regex ran on V8's backtracking engine, on the
 * server's main thread. `^(\w+\s?)*$` on an ordinary 70-character reply took 54 s in the CLI
 * and froze the server for 49 s; `(x+x+)+y` on 3,000 x's ran past 200 s. Each attack goes
 * through the path a run takes: the blueprint loader, then deterministic grading of the reply.
 * Before the fix these tests block for minutes (the match is synchronous) and then fail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBlueprint } from '../../blueprint/parse';
import type { Point } from '../../blueprint/schema';
import { evaluateDeterministicPoint } from '../../scoring/deterministic';
import type { Verdict } from '../../scoring/verdict';
import { createQuickJsSandbox, type QuickJsSandbox } from '../sandbox/quickjs';

const REPLY_70 = 'Thanks for asking about the weather in Paris today: sunny and warm!!!!';
const XS = 'x'.repeat(3000);

/** Every point of a blueprint whose prompts are `prompts` (YAML list items). */
function load(prompts: string): Point[] {
  const parsed = parseBlueprint(`title: ReDoS\n---\n${prompts}`, { file: 'redos.yml' });
  if (!parsed.ok) throw new Error(parsed.errors.map((e) => e.message).join('; '));
  return parsed.blueprint.prompts.flatMap((p) => p.points);
}

function pointsOf(should: string): Point[] {
  return load(`- prompt: Say something.\n  should:\n${should}`);
}

/**
 * Grades the point three times (the first includes compiling the pattern) and gives the median
 * time: on this shared 2-core machine one run can catch a GC pause; a backtracking engine is
 * slow on every run. Every run must also stay under 250 ms.
 */
async function timed(point: Point, reply: string, sandbox?: QuickJsSandbox): Promise<{ ms: number; verdict: Verdict }> {
  const times: number[] = [];
  let verdict: Verdict | 'needs-judge' = 'needs-judge';
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    verdict = await evaluateDeterministicPoint(point, reply, sandbox ? { sandbox } : {});
    times.push(performance.now() - started);
  }
  if (verdict === 'needs-judge') throw new Error('a regex point needs no judge');
  expect(Math.max(...times)).toBeLessThan(sandbox ? 3_000 : 250);
  return { ms: times.sort((a, b) => a - b)[1]!, verdict };
}

let sandbox: QuickJsSandbox;
beforeAll(async () => {
  sandbox = await createQuickJsSandbox();
});
afterAll(() => sandbox.dispose());

describe('blueprint regexes run on a linear-time engine (finding 2)', () => {
  it('^(\\w+\\s?)*$ on an ordinary 70-character reply: < 50 ms, a fail, on RE2', async () => {
    expect(REPLY_70).toHaveLength(70);
    const [point] = pointsOf('    - $matches: "^(\\\\w+\\\\s?)*$"\n');
    const { ms, verdict } = await timed(point!, REPLY_70);
    expect(verdict).toMatchObject({ status: 'fail', score: 0, regexEngine: 're2' });
    expect(ms).toBeLessThan(50);
  });

  it('(x+x+)+y on 3,000 x\'s: < 50 ms, a fail, on RE2', async () => {
    const [point] = pointsOf('    - $matches: "(x+x+)+y"\n');
    const { ms, verdict } = await timed(point!, XS);
    expect(verdict).toMatchObject({ status: 'fail', score: 0, regexEngine: 're2' });
    expect(ms).toBeLessThan(50);
  });

  it('the same patterns in list functions and `correct:` assertions are just as fast', async () => {
    const points = load(
      [
        '- prompt: a',
        '  should:',
        '    - $imatches_all_of: ["(x+x+)+y", "^(\\\\w+\\\\s?)*$"]',
        '    - $matches_at_least_n_of: [1, ["(x+x+)+y"]]',
        '- prompt: b',
        '  correct: { type: regex, pattern: "(x+x+)+y" }',
        '- prompt: c',
        '  correct: { assertions: [{ type: jsonpath_regex, path: "$.content", pattern: "^(\\\\w+\\\\s?)*$", flags: i }] }',
      ].join('\n') + '\n',
    );
    expect(points.map((p) => p.kind)).toEqual(['function', 'function', 'correct', 'correct']);
    for (const point of points) {
      for (const reply of [XS, REPLY_70]) {
        const { ms, verdict } = await timed(point, reply);
        expect(verdict.status, point.text).not.toBe('error');
        expect(verdict.regexEngine).toBe('re2');
        expect(ms, `${point.text} on ${reply.length} characters`).toBeLessThan(50);
      }
    }
  });

  it('a catastrophic pattern RE2 cannot run (lookahead) is stopped by the sandbox time limit: an error, not a hang', async () => {
    const [point] = pointsOf('    - $matches: "^(?=(x+x+)+y)"\n');
    const { ms, verdict } = await timed(point!, XS, sandbox);
    expect(verdict).toMatchObject({ status: 'error', score: null, regexEngine: 'sandbox' });
    expect(verdict.detail).toMatch(/ran past its time limit/);
    expect(ms).toBeLessThan(3_000); // the sandbox's 1 s limit, with margin (each of the 3 runs)
  });

  it('without a sandbox that pattern is an error saying why, never run on the main thread', async () => {
    const [point] = pointsOf('    - $matches: "^(?=(x+x+)+y)"\n');
    const { ms, verdict } = await timed(point!, XS);
    expect(verdict).toMatchObject({ status: 'error', score: null });
    expect(verdict.detail).toMatch(/needs the JavaScript engine \(lookaround\).*sandbox/);
    expect(ms).toBeLessThan(50);
  });
});
