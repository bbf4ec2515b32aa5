/**
 * Blueprint regexes on RE2 (re2js, linear time) against V8's backtracking engine (issue 11,
 * finding 2):
 *  1. Every regex of the Weval corpus (lib/core/points/vectors/weval-corpus-function-args.json)
 *     on a set of ordinary replies: mean µs per test and per compile, V8 vs the compiler (whose
 *     test also NFC-normalises and, for `i` patterns, case-folds the reply), and how many
 *     patterns went to the sandbox.
 *  2. The two ReDoS patterns of the issue: V8 at growing input sizes (it doubles every ~2
 *     characters, so only small inputs are measured) and RE2 at the issue's sizes.
 * `BENCH_REPEAT` sets the passes over the corpus (default 20).
 */
import { readFileSync } from 'node:fs';
import { compilePattern, testPattern } from '@/lib/core';

const VECTORS = new URL('../lib/core/points/vectors/weval-corpus-function-args.json', import.meta.url);

const REPLIES = [
  'The capital of France is Paris. It has been the capital since the 10th century.',
  'I cannot help with that request, but here is some general information instead.',
  '1. First, preheat the oven to 180°C.\n2. Mix the flour and sugar.\n3. Bake for 25 minutes.',
  '{"name": "Ada Lovelace", "born": 1815, "known_for": ["Analytical Engine", "first program"]}',
  'Straße, İstanbul, naïve café — Unicode text with ligatures ﬁ and emoji 😀 to keep it honest.',
  'x'.repeat(2_000),
];

function patternsOf(args: unknown): string[] {
  if (typeof args === 'string') return [args];
  if (Array.isArray(args)) return args.flatMap(patternsOf);
  return [];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export async function bench(): Promise<void> {
  const vectors = JSON.parse(readFileSync(VECTORS, 'utf8')) as { pairs: { fn: string; args: unknown }[] };
  const patterns = vectors.pairs.filter((p) => /matches/.test(p.fn)).flatMap((p) => patternsOf(p.args).map((pattern) => ({ pattern, ci: /imatches/.test(p.fn) })));
  let t0 = performance.now();
  const compiled = patterns.map((p) => compilePattern(p.pattern, p.ci)).filter((c) => c.ok);
  const firstCompileUs = ((performance.now() - t0) * 1000) / patterns.length;
  t0 = performance.now();
  for (const c of compiled) if (c.ok) new RegExp(c.source, c.flags);
  const v8CompileUs = ((performance.now() - t0) * 1000) / compiled.length;
  const sandboxed = compiled.filter((c) => c.ok && c.re2 === null).length;
  const repeat = Math.max(1, Number(process.env.BENCH_REPEAT ?? 20));

  const compileTimes: number[] = [];
  const re2Times: number[] = [];
  const v8Times: number[] = [];
  for (let r = 0; r < repeat; r++) {
    let t = performance.now();
    for (const p of patterns) compilePattern(p.pattern, p.ci);
    compileTimes.push(((performance.now() - t) * 1000) / patterns.length);
    t = performance.now();
    for (const c of compiled) if (c.ok && c.re2) for (const reply of REPLIES) testPattern(c, reply);
    re2Times.push(((performance.now() - t) * 1000) / (compiled.length * REPLIES.length));
    t = performance.now();
    for (const c of compiled) {
      if (!c.ok || !c.re2) continue;
      const re = new RegExp(c.source, c.flags);
      for (const reply of REPLIES) re.test(reply);
    }
    v8Times.push(((performance.now() - t) * 1000) / (compiled.length * REPLIES.length));
  }
  console.log(`corpus: ${patterns.length} patterns (${compiled.length} valid, ${sandboxed} need the sandbox) × ${REPLIES.length} replies, ${repeat} passes`);
  console.log(`  compile (validate + translate + RE2): ${firstCompileUs.toFixed(1)} µs per pattern the first time, ${median(compileTimes).toFixed(1)} µs from the cache; V8 alone: ${v8CompileUs.toFixed(1)} µs`);
  console.log(`  test on RE2: ${median(re2Times).toFixed(2)} µs per pattern × reply; V8: ${median(v8Times).toFixed(2)} µs`);

  const reply70 = 'Thanks for asking about the weather in Paris today: sunny and warm!!!!';
  for (const [pattern, input, sizes] of [
    ['^(\\w+\\s?)*$', (n: number) => `${'a'.repeat(n - 1)}!`, [20, 22, 24, 26]],
    ['(x+x+)+y', (n: number) => 'x'.repeat(n), [16, 18, 20, 22]],
  ] as const) {
    const re = new RegExp(pattern, 'u');
    const v8 = sizes.map((n) => {
      const text = input(n);
      const t = performance.now();
      re.test(text);
      return `${n} chars ${(performance.now() - t).toFixed(1)} ms`;
    });
    const c = compilePattern(pattern, false);
    if (!c.ok) throw new Error(pattern);
    const big = pattern.startsWith('(x') ? 'x'.repeat(3_000) : reply70;
    const times = Array.from({ length: 50 }, () => {
      const t = performance.now();
      testPattern(c, big);
      return performance.now() - t;
    });
    console.log(`${pattern}: V8 ${v8.join(', ')}; RE2 on ${big.length} chars: median ${median(times).toFixed(3)} ms, max ${Math.max(...times).toFixed(3)} ms`);
  }
}
