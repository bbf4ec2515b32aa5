import { describe, expect, it } from 'vitest';
import { assay, lines } from '../cli.testkit';

describe('assay check', () => {
  it('grades a function point (pass, graded), as text or one JSON line; exit 0 whatever the verdict', async () => {
    const [pass, graded, json] = await Promise.all([
      assay(['check', '--point', '$contains: deadline', '--response', 'The deadline is Friday.']),
      assay(['check', '--point', '$contains_all_of: [deadline, fee]', '--response', 'The deadline is Friday.']),
      assay(['check', '--point', '"$icontains: \'FRIDAY\'"', '--response', 'The deadline is Friday.', '--json']),
    ]);
    expect(pass.code).toBe(0);
    expect(lines(pass.stdout)).toEqual(['status: pass', 'score: 1', 'detail: contains "deadline": yes']);
    expect(graded.code).toBe(0);
    expect(lines(graded.stdout)).toEqual(['status: pass', 'score: 0.5', 'detail: contains_all_of: 1/2 found; missing "fee"']);
    expect(JSON.parse(json.stdout)).toEqual({ status: 'pass', score: 1, detail: expect.stringContaining('icontains') });
  });

  it('fails a point that does not hold, and inverts a not_ function', async () => {
    const [missing, negated] = await Promise.all([
      assay(['check', '--point', "$matches: '^\\d+ days$'", '--response', 'thirty days', '--json']),
      assay(['check', '--point', '$not_icontains: guarantee', '--response', 'We GUARANTEE it.', '--json']),
    ]);
    expect(JSON.parse(missing.stdout)).toMatchObject({ status: 'fail', score: 0 });
    expect(JSON.parse(negated.stdout)).toMatchObject({ status: 'fail', score: 0 });
  });

  it('runs $js in the sandbox, with the messages, tool calls and model it is given', async () => {
    const [js, tools] = await Promise.all([
      assay(['check', '--point', '$js: "r.length < 20 && context.messages.length === 1 && context.modelId === \'m1\'"', '--response', 'Short.', '--messages', '[{"role":"user","content":"Be brief"}]', '--model', 'm1', '--json']),
      assay(['check', '--point', '$tool_args_match: { name: search, where: "args.q.startsWith(\'weather\')" }', '--response', '', '--tool-calls', '[{"name":"search","arguments":"{\\"q\\":\\"weather lisbon\\"}"}]', '--json']),
    ]);
    expect(js.code).toBe(0);
    expect(JSON.parse(js.stdout)).toMatchObject({ status: 'pass', score: 1 });
    expect(JSON.parse(tools.stdout)).toMatchObject({ status: 'pass', score: 1 });
  });

  it('does not judge LLM-judged points: status error, "needs a judge"', async () => {
    const [text, question] = await Promise.all([
      assay(['check', '--point', 'Mentions the deadline', '--response', 'Friday.']),
      assay(['check', '--point', 'noul: Every figure appears in the tool output', '--response', '4.2M', '--json']),
    ]);
    expect(text.code).toBe(0);
    expect(lines(text.stdout)).toEqual(['status: error', 'score: null', expect.stringMatching(/^detail: needs a judge: "Mentions the deadline"/)]);
    expect(JSON.parse(question.stdout)).toEqual({ status: 'error', score: null, detail: expect.stringMatching(/^needs a judge/) });
  });

  it('exit 2 on usage errors: a missing option, an invalid point (file:line:col), bad JSON options', async () => {
    const [noResponse, badPoint, badMessages, path] = await Promise.all([
      assay(['check', '--point', '$contains: x']),
      assay(['check', '--point', '$contans: x', '--response', 'x']),
      assay(['check', '--point', '$contains: x', '--response', 'x', '--messages', '[{"role": "robot"}]']),
      // A leading "- " makes it a nested list: an alternative path, not one point.
      assay(['check', '--point=- $contains: a\n- $contains: b', '--response', 'ab']),
    ]);
    expect(noResponse.code).toBe(2);
    expect(noResponse.stderr).toMatch(/--response/);
    expect(badPoint.code).toBe(2);
    expect(badPoint.stderr).toContain('--point:1:1: unknown point function "contans"; did you mean $contains');
    expect(badPoint.stdout).toBe('');
    expect(badMessages.code).toBe(2);
    expect(badMessages.stderr).toMatch(/--messages: 0\.role/);
    expect(path.code).toBe(2);
    expect(path.stderr).toMatch(/alternative path of 2 points; check one point at a time/);
  });

  it('--jsonl: one output line per input line, in order; a malformed line is an error line and the stream goes on', async () => {
    const input = [
      JSON.stringify({ point: '$contains: deadline', response: 'The deadline is Friday.' }),
      '{"point": "$contains: x", "response": ',
      JSON.stringify({ point: { $js: 'context.modelId === "m1"' }, response: 'r', model: 'm1' }),
      JSON.stringify({ point: '$contains: x' }),
      JSON.stringify({ point: '$tool_called: search', response: null, tool_calls: [{ name: 'search', arguments: '{}' }] }),
      JSON.stringify({ point: 'Mentions the deadline', response: 'Friday', messages: [{ role: 'user', content: 'When?' }] }),
      JSON.stringify({ point: '$contans: x', response: 'x' }),
    ].join('\n');
    const r = await assay(['check', '--jsonl'], `${input}\n`);
    expect(r.code).toBe(0);
    const out = lines(r.stdout).map((l) => JSON.parse(l));
    expect(out).toEqual([
      { status: 'pass', score: 1, detail: 'contains "deadline": yes' },
      { status: 'error', score: null, detail: expect.stringMatching(/^line 2: not JSON/) },
      { status: 'pass', score: 1, detail: expect.any(String) },
      { status: 'error', score: null, detail: expect.stringMatching(/^line 4: response: /) },
      { status: 'pass', score: 1, detail: 'tool_called "search": 1 call' },
      { status: 'error', score: null, detail: expect.stringMatching(/^needs a judge/) },
      { status: 'error', score: null, detail: expect.stringMatching(/^line 7: point:1:1: unknown point function "contans"/) },
    ]);
  });

  it('--jsonl refuses per-check options (they come from each line)', async () => {
    const r = await assay(['check', '--jsonl', '--point', '$contains: x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--jsonl reads everything from standard input; drop --point/);
  });
});

describe('assay check with a soev criterion', () => {
  it('grades a - kind: entry like a $fn point, with the citations and expect it is given', async () => {
    const [language, required, badParam] = await Promise.all([
      assay(['check', '--point', '{kind: reply.language, language: nl}', '--response', 'De termijn voor bezwaar is zes weken. The deadline is six weeks.', '--json']),
      assay(['check', '--point', '{kind: citations.required}', '--response', '…', '--citations', '["law/awb/6/7"]', '--expect', '{"sources": {"required": {"awb": ["law/awb/6"], "wmo": ["law/wmo"]}}}', '--json']),
      assay(['check', '--point', '{kind: reply.max_length, maxx: 3}', '--response', 'x']),
    ]);
    expect(JSON.parse(language.stdout)).toEqual({ status: 'fail', score: 0, detail: expect.stringMatching(/^1 of 2 sentences not in nl/) });
    expect(JSON.parse(required.stdout)).toEqual({ status: 'fail', score: 0, detail: '1 of 2 required groups cited; missing: wmo' });
    expect(badParam.code).toBe(2);
    expect(badParam.stderr).toContain('--point:1:26: reply.max_length has no parameter `maxx`');
  });
});
