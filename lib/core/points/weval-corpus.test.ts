/**
 * Every function point of the real Weval blueprint corpus (vectors/weval-corpus-function-args.json,
 * extracted from conformance/weval/parser-corpus.json) must resolve and pass its argument schema,
 * so strict schemas never reject a blueprint Weval accepted (SPEC §2.1). The exceptions are the
 * quoted `"$icontains: '(A)'"` strings that Weval turned into unknown function names (README
 * item 1): those must be refused with the fix spelled out. Each also evaluates without throwing.
 */
import corpusArgs from './vectors/weval-corpus-function-args.json';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkPointArgs, evaluatePoint } from './evaluate';
import { resolvePointFunction } from './registry';
import { createQuickJsSandbox, type QuickJsSandbox } from './sandbox/quickjs';

interface Pair {
  fn: string;
  args?: unknown;
  count: number;
  files: string[];
}

const corpus = corpusArgs as { points: number; pairs: Pair[] };

/** Weval's parse of a quoted "$fn: arg" string: the whole text became the function name. */
const isGlued = (fn: string) => /:/.test(fn);

let sandbox: QuickJsSandbox;
beforeAll(async () => {
  sandbox = await createQuickJsSandbox();
});

describe('the Weval corpus’s function points', () => {
  it('covers every point of the extract', () => {
    expect(corpus.pairs.reduce((sum, pair) => sum + pair.count, 0)).toBe(corpus.points);
  });

  const regular = corpus.pairs.filter((pair) => !isGlued(pair.fn));
  const glued = corpus.pairs.filter((pair) => isGlued(pair.fn));

  it.each(regular.map((pair) => ({ ...pair, label: `${pair.fn} ${JSON.stringify(pair.args)?.slice(0, 60)}` })))('$label', async (pair) => {
    const resolved = resolvePointFunction(pair.fn);
    if (!resolved.ok) throw new Error(resolved.message);
    const checked = checkPointArgs(resolved.def, pair.args);
    expect(checked.ok ? 'valid' : checked.message, pair.files.join(', ')).toBe('valid');
    const outcome = await evaluatePoint(resolved, 'A sample reply. TOOL_CALL {"name": "calculator", "arguments": {"expression": "1+1"}}', pair.args, {
      sandbox,
      modelId: 'm',
      messages: [{ role: 'user', content: 'q' }],
    });
    expect(outcome).toSatisfy((o: object) => 'score' in o || 'error' in o);
  });

  it.each(glued.map((pair) => ({ ...pair, label: pair.fn })))('refuses the quoted string $label with the fix', (pair) => {
    const resolved = resolvePointFunction(pair.fn);
    expect(resolved.ok).toBe(false);
    if (!resolved.ok) {
      expect(resolved.message).toMatch(/YAML mapping/);
      expect(resolved.suggestions).toEqual([pair.fn.split(':')[0]!.trim()]);
    }
  });
});
