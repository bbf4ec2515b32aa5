import { describe, expect, it } from 'vitest';
import { buildResponseView, parseTextToolCalls, ResponseViewSchema } from './view';

describe('buildResponseView', () => {
  it('keeps raw, trims content, and has no content_json for prose', () => {
    const v = buildResponseView({ content: '  Hello there.\n' });
    expect(v).toEqual({ raw: '  Hello there.\n', content: 'Hello there.', tool_calls: [] });
    expect('content_json' in v).toBe(false);
    expect(ResponseViewSchema.parse(v)).toEqual(v);
  });

  it('parses JSON content, and JSON inside a ```json fence with prose around it', () => {
    expect(buildResponseView({ content: '{"a": [1, 2]}' }).content_json).toEqual({ a: [1, 2] });
    expect(buildResponseView({ content: 'Here:\n```json\n{"ok": true}\n```\nDone.' }).content_json).toEqual({ ok: true });
    expect(buildResponseView({ content: '```\n[1]\n```' }).content_json).toEqual([1]);
    expect(buildResponseView({ content: '```json\n{broken\n```' }).content_json).toBeUndefined();
  });

  it('parses OpenAI-style function.arguments JSON strings', () => {
    const v = buildResponseView({
      content: null,
      toolCalls: [
        { id: 'call_1', type: 'function', function: { name: 'useTools', arguments: '{"tool":"storage copy a b"}' } },
        { id: 'call_2', type: 'function', function: { name: 'broken', arguments: '{nope' } },
        { name: 'plain', input: { q: 1 } },
        { nonsense: true },
      ],
    });
    expect(v.raw).toBe('');
    expect(v.tool_calls).toEqual([
      { id: 'call_1', name: 'useTools', arguments: { tool: 'storage copy a b' } },
      { id: 'call_2', name: 'broken', arguments: '{nope' },
      { name: 'plain', arguments: { q: 1 } },
    ]);
  });

  it('parses plain-text tool_call / arguments blocks into the same shape, after structured calls', () => {
    const content = [
      'I will copy it.',
      'tool_call: useTools',
      'arguments: {"tool": "storage copy \\"Incident-Response.md\\" Incident-Response-Template.md",',
      '  "nested": {"k": "}"}}',
      '',
      'tool_call: listFiles',
      'arguments: {}',
      'tool_call: ping',
    ].join('\n');
    const v = buildResponseView({ content, toolCalls: [{ function: { name: 'first', arguments: '' } }] });
    expect(v.tool_calls).toEqual([
      { name: 'first', arguments: {} },
      { name: 'useTools', arguments: { tool: 'storage copy "Incident-Response.md" Incident-Response-Template.md', nested: { k: '}' } } },
      { name: 'listFiles', arguments: {} },
      { name: 'ping', arguments: {} },
    ]);
  });

  it('keeps unparsable text arguments as the raw string', () => {
    expect(parseTextToolCalls('tool_call: x\narguments: not json')).toEqual([{ name: 'x', arguments: 'not json' }]);
    expect(parseTextToolCalls('tool_call: x\narguments: {"unclosed": 1')).toEqual([{ name: 'x', arguments: '{"unclosed": 1' }]);
  });
});
