/** Behaviour of the function families beyond the Weval vectors: fences, tools, external calls, js. */
import { describe, expect, it } from 'vitest';
import { evaluatePoint } from '../evaluate';
import { resolvePointFunction } from '../registry';
import type { ExternalCallPort, FnOutcome, PointContext, SandboxPort } from '../types';
import { SandboxError } from '../types';
import { isJsonResponse } from './json';
import { interpretJsResult } from './js';
import { substituteTemplates } from './external';
import { extractToolCallsFromText } from './tool-trace';
import { matchesPartial } from './tools';

async function run(fn: string, response: string, args: unknown, ctx: PointContext = {}): Promise<FnOutcome> {
  const r = resolvePointFunction(fn);
  if (!r.ok) throw new Error(r.message);
  return evaluatePoint(r, response, args, ctx);
}

const score = async (...a: Parameters<typeof run>) => {
  const outcome = await run(...a);
  if ('error' in outcome) throw new Error(outcome.error);
  return outcome.score;
};

describe('is_json', () => {
  it.each([
    ['{"a": 1}', true],
    ['  [1, 2]\n', true],
    ['```json\n{"a": 1}\n```', true],
    ['```JSON\r\n{"a": 1}\r\n```', true],
    ['```\n{"a": 1}```', true],
    ['```json\n"just a string"\n```', false],
    ['```python\n{"a": 1}\n```', false],
    ['42', false],
    ['null', false],
    ['{"a": 1} and more', false],
  ])('%j → %s', (response, ok) => {
    expect(isJsonResponse(response).ok).toBe(ok);
  });
});

describe('*_at_least_n_of', () => {
  it('treats n = 0 as met and n above the list length as a fraction (Weval)', async () => {
    expect(await score('contains_at_least_n_of', 'nothing', [0, ['x']])).toBe(1);
    expect(await score('contains_at_least_n_of', 'a b', [4, ['a', 'b']])).toBe(0.5);
    expect(await score('imatches_at_least_n_of', 'A1 b', [2, ['a\\d', '^x']])).toBe(0.5);
  });
});

describe('word_count_between', () => {
  it('follows Weval’s grading', async () => {
    expect(await score('word_count_between', '', [0, 5])).toBe(1);
    expect(await score('word_count_between', 'a b', [0, 0])).toBe(0);
    expect(await score('word_count_between', 'a b c', [6, 9])).toBe(0.5);
  });
});

describe('tool functions', () => {
  const ctx: PointContext = {
    toolCalls: [
      { name: 'search', arguments: { query: 'Article 2', opts: { top: 3, tags: ['a', 'b'] } } },
      { name: 'retrieve', arguments: { docId: '42' } },
      { name: 'search', arguments: { query: 'Article 3' } },
      { name: 'answer', arguments: 'not json' },
    ],
  };

  it('reads TOOL_CALL lines when the provider gave no structured calls', async () => {
    const text = 'Thinking…\n  TOOL_CALL {"name":"calculator","arguments":{"expression":"(312*49) - 777"}}\nTOOL_CALL not json\nTOOL_CALL {"arguments":{}}';
    expect(extractToolCallsFromText(text)).toEqual([{ name: 'calculator', arguments: { expression: '(312*49) - 777' } }]);
    expect(await score('tool_called', text, 'calculator')).toBe(1);
    expect(await score('tool_args_match', text, { name: 'calculator', where: { expression: '(312*49)-777' }, normalizeWhitespace: true })).toBe(1);
    expect(await score('tool_args_match', text, { name: 'calculator', where: { expression: '(312*49)-777' } })).toBe(0);
  });

  it('prefers structured calls over text', async () => {
    expect(await score('tool_called', 'TOOL_CALL {"name":"calculator"}', 'calculator', ctx)).toBe(0);
  });

  it('counts, orders and negates', async () => {
    expect(await score('tool_call_count_between', '', [2, 2, 'search'], ctx)).toBe(1);
    expect(await score('tool_call_count_between', '', [0, 3], ctx)).toBe(0);
    expect(await score('tool_call_order', '', ['search', 'retrieve', 'answer'], ctx)).toBe(1);
    expect(await score('tool_call_order', '', ['retrieve', 'retrieve'], ctx)).toBe(0);
    expect(await score('not_tool_called', '', 'delete_all', ctx)).toBe(1);
  });

  it('matches partial arguments recursively', () => {
    expect(matchesPartial({ a: { b: [1, 2], c: 'x y' } }, { a: { b: [1], c: 'xy' } }, true)).toBe(true);
    expect(matchesPartial({ a: { c: 'x y' } }, { a: { c: 'xy' } }, false)).toBe(false);
    expect(matchesPartial({ a: 5 }, { a: { b: 1 } }, false)).toBe(false);
    expect(matchesPartial('text', { a: 1 }, false)).toBe(false);
  });

  it('runs a string `where` in the sandbox once per call; a call it throws on does not match', async () => {
    const seen: unknown[] = [];
    const sandbox: SandboxPort = {
      run(code, globals) {
        seen.push(globals.args);
        const args = globals.args as { query?: string };
        if (!args.query) throw new SandboxError('runtime', "TypeError: cannot read property 'startsWith' of undefined");
        return args.query === 'Article 3';
      },
    };
    expect(await score('tool_args_match', '', { name: 'search', where: "args.query.startsWith('Article')" }, { ...ctx, sandbox })).toBe(1);
    expect(seen).toEqual([ctx.toolCalls![0]!.arguments, ctx.toolCalls![2]!.arguments]);
  });

  it('reports a `where` that does not compile, times out or has no sandbox', async () => {
    const broken: SandboxPort = { run: () => { throw new SandboxError('syntax', 'SyntaxError: unexpected token'); } };
    expect(await run('tool_args_match', '', { name: 'search', where: 'args.(' }, { ...ctx, sandbox: broken })).toEqual({ error: expect.stringMatching(/SyntaxError/) });
    expect(await run('tool_args_match', '', { name: 'search', where: 'true' }, ctx)).toEqual({ error: expect.stringMatching(/needs a sandbox/) });
  });
});

describe('call and factcheck', () => {
  function port(reply: unknown) {
    const requests: { service: string; payload: unknown }[] = [];
    const external: ExternalCallPort = {
      call(service, payload) {
        requests.push({ service, payload });
        return reply instanceof Error ? Promise.reject(reply) : Promise.resolve(reply);
      },
    };
    return { external, requests };
  }
  const ctx: PointContext = { modelId: 'openai:gpt', promptId: 'p1', messages: [{ role: 'user', content: 'Capital of France?' }] };

  it('needs a configured port', async () => {
    expect(await run('call', 'r', { service: 'x' }, ctx)).toEqual({ error: 'external service not configured' });
    expect(await run('factcheck', 'r', undefined, ctx)).toEqual({ error: 'external service not configured' });
  });

  it('sends templated parameters to the named service, never the transport settings', async () => {
    const { external, requests } = port({ score: 0.8, explain: 'mostly right' });
    const outcome = await run('call', 'Paris', { service: 'checker', claim: '{response} ({modelId}, {promptId})', q: '{promptText}', headers: { Authorization: 'x' }, timeout_ms: 5 }, { ...ctx, external });
    expect(outcome).toEqual({ score: 0.8, detail: 'mostly right' });
    expect(requests).toEqual([
      { service: 'checker', payload: { response: 'Paris', modelId: 'openai:gpt', promptId: 'p1', params: { claim: 'Paris (openai:gpt, p1)', q: 'Capital of France?' } } },
    ]);
  });

  it('passes an inline url as the service identity for the allow-list to judge', async () => {
    const { external, requests } = port(true);
    expect(await run('external', 'r', { url: 'https://api.example.com/v' }, { ...ctx, external })).toMatchObject({ score: 1 });
    expect(requests[0]!.service).toBe('https://api.example.com/v');
  });

  it('turns bad replies and failures into errors', async () => {
    expect(await run('call', 'r', { service: 's' }, { ...ctx, external: port({ error: 'quota' }).external })).toEqual({ error: 's: quota' });
    expect(await run('call', 'r', { service: 's' }, { ...ctx, external: port('yes').external })).toHaveProperty('error');
    expect(await run('call', 'r', { service: 's' }, { ...ctx, external: port({ score: Number.NaN }).external })).toHaveProperty('error');
    expect(await run('call', 'r', { service: 's' }, { ...ctx, external: port(new Error('ECONNREFUSED')).external })).toEqual({ error: 's failed: ECONNREFUSED' });
  });

  it('factcheck sends the response as the claim with the optional instruction', async () => {
    const { external, requests } = port({ score: 1, explain: 'ok' });
    expect(await run('factcheck', 'Paris is in France', 'focus on cities', { ...ctx, external })).toEqual({ score: 1, detail: 'ok' });
    await run('factcheck', 'x', undefined, { ...ctx, external });
    expect(requests).toEqual([
      { service: 'factcheck', payload: { claim: 'Paris is in France', instruction: 'focus on cities' } },
      { service: 'factcheck', payload: { claim: 'x', instruction: undefined } },
    ]);
  });

  it('substitutes templates recursively and leaves unknown placeholders', () => {
    expect(substituteTemplates({ a: ['{x}', { b: '{y}' }], c: 3 }, { x: '1' })).toEqual({ a: ['1', { b: '{y}' }], c: 3 });
  });
});

describe('js', () => {
  it('needs a sandbox', async () => {
    expect(await run('js', 'r', 'true')).toEqual({ error: expect.stringMatching(/needs a sandbox/) });
  });

  it('retries as a function body only for a top-level return', async () => {
    const codes: string[] = [];
    const sandbox: SandboxPort = {
      run(code) {
        codes.push(code);
        if (!code.startsWith('(() =>')) throw new SandboxError('syntax', 'SyntaxError: return not in a function');
        return 1;
      },
    };
    expect(await score('js', 'r', 'return 1', { sandbox })).toBe(1);
    expect(codes).toEqual(['return 1', '(() => {\nreturn 1\n})()']);
  });

  it.each([
    [true, { score: 1 }],
    [false, { score: 0 }],
    [0.25, { score: 0.25 }],
    [7, { score: 1 }],
    [-1, { score: 0 }],
    [Number.POSITIVE_INFINITY, { score: 1 }],
    [undefined, { score: 0 }],
    [{ score: true, explain: 'why' }, { score: 1, detail: 'why' }],
    [{ score: 2 }, { score: 1 }],
  ])('result %j', (result, expected) => {
    expect(interpretJsResult(result)).toMatchObject(expected);
  });

  it.each([[Number.NaN], ['a string'], [null], [[1]], [{ score: 'high' }], [{ score: null }]])('result %j is an error', (result) => {
    expect(interpretJsResult(result)).toHaveProperty('error');
  });
});
