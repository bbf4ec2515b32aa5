import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createQuickJsSandbox, type QuickJsSandbox } from '../points/sandbox/quickjs';
import { evaluateCorrect } from './evaluate';
import { CorrectNodeSchema, type CorrectNode } from './schema';
import { buildResponseView } from './view';

// The seed 002 scenario: copy the runbook through the storage CLI.
const SCENARIO: CorrectNode = CorrectNodeSchema.parse({
  any: [
    {
      name: 'copy_cli',
      assertions: [
        { type: 'jsonpath_equals', path: '$.tool_calls[0].name', value: 'useTools' },
        {
          type: 'jsonpath_regex',
          path: '$.tool_calls[0].arguments.tool',
          pattern: '^storage copy\\b(?=.*Incident-Response\\.md)(?=.*Incident-Response-Template\\.md)',
        },
      ],
    },
    {
      name: 'copy_by_id',
      assertions: [{ type: 'jsonpath_equals', path: '$.tool_calls[0].arguments.id', value: 'runbook-1' }],
    },
  ],
});

const call = (args: object) => ({ type: 'function', function: { name: 'useTools', arguments: JSON.stringify(args) } });

// The scenario's lookaheads are beyond RE2: they run in the JS engine inside the sandbox.
let sandbox: QuickJsSandbox;
beforeAll(async () => {
  sandbox = await createQuickJsSandbox();
});
afterAll(() => sandbox.dispose());

describe('evaluateCorrect on the seed scenario', () => {
  it('is an error, not a fail, without a sandbox to run its lookaheads in', () => {
    const view = buildResponseView({ content: '', toolCalls: [call({ tool: 'storage copy Incident-Response.md Incident-Response-Template.md' })] });
    const r = evaluateCorrect(SCENARIO, view);
    expect(r).toMatchObject({ status: 'error', regexEngine: 'sandbox' });
    expect(r.explanation).toMatch(/needs the JavaScript engine \(lookaround\)/);
  });

  it('passes through the first branch and says which', () => {
    const view = buildResponseView({ content: '', toolCalls: [call({ tool: 'storage copy Incident-Response.md Incident-Response-Template.md' })] });
    const r = evaluateCorrect(SCENARIO, view, { sandbox });
    expect(r.status).toBe('pass');
    expect(r.regexEngine).toBe('sandbox');
    expect(r.explanation).toContain("branch 1 'copy_cli' passed");
  });

  it('passes the same way from a plain-text tool_call block', () => {
    const view = buildResponseView({
      content: 'tool_call: useTools\narguments: {"tool": "storage copy Incident-Response.md Incident-Response-Template.md"}',
    });
    expect(evaluateCorrect(SCENARIO, view, { sandbox }).status).toBe('pass');
  });

  it('fails naming every branch and the assertion that failed in each', () => {
    const view = buildResponseView({ content: '', toolCalls: [call({ tool: 'storage move Incident-Response.md X.md' })] });
    const r = evaluateCorrect(SCENARIO, view, { sandbox });
    expect(r.status).toBe('fail');
    expect(r.explanation).toMatch(/no branch passed/);
    expect(r.explanation).toMatch(/branch 1 'copy_cli' failed \('copy_cli': assertion 2 failed \(jsonpath_regex/);
    expect(r.explanation).toMatch(/branch 2 'copy_by_id' failed .*found nothing/);
  });
});

describe('tree semantics', () => {
  const view = buildResponseView({ content: '{"answer": 42, "tags": ["a", "b"]}' });

  it('all / not / nested', () => {
    const tree = CorrectNodeSchema.parse({
      all: [
        { type: 'jsonpath_equals', path: '$.content_json.answer', value: 42 },
        { not: { type: 'jsonpath_exists', path: '$.tool_calls[0]' } },
        { any: [{ type: 'jsonpath_contains', path: '$.content_json.tags', value: 'b' }, { type: 'regex', pattern: 'zzz' }] },
      ],
    });
    expect(evaluateCorrect(tree, view)).toMatchObject({ status: 'pass' });
  });

  it('all fails on the first failing branch, by position', () => {
    const tree = CorrectNodeSchema.parse({
      all: [{ type: 'contains', value: 'answer' }, { type: 'equals', value: 'nope' }],
    });
    const r = evaluateCorrect(tree, view);
    expect(r.status).toBe('fail');
    expect(r.explanation).toMatch(/^all: branch 2 failed \(equals \$\.content == "nope"/);
  });

  it('not fails when its child passes, and says so', () => {
    const r = evaluateCorrect({ not: { type: 'regex', pattern: '42' } }, view);
    expect(r).toMatchObject({ status: 'fail' });
    expect(r.explanation).toMatch(/negated check passed/);
  });

  it('a wildcard path holds when any selected value matches', () => {
    const v = buildResponseView({ content: '', toolCalls: [{ name: 'a' }, { name: 'b' }] });
    expect(evaluateCorrect({ type: 'jsonpath_equals', path: '$.tool_calls[*].name', value: 'b' }, v).status).toBe('pass');
    expect(evaluateCorrect({ type: 'jsonpath_not_exists', path: '$.tool_calls[?(@.name=="c")]' }, v).status).toBe('pass');
  });

  it('deep equality ignores key order; contains matches sub-objects', () => {
    const v = buildResponseView({ content: '{"b": 1, "a": {"x": [1, 2]}}' });
    expect(evaluateCorrect({ type: 'jsonpath_equals', path: '$.content_json', value: { a: { x: [1, 2] }, b: 1 } }, v).status).toBe('pass');
    expect(evaluateCorrect({ type: 'jsonpath_contains', path: '$.content_json', value: { b: 1 } }, v).status).toBe('pass');
  });

  it('reads a leading Python inline flag group as JS flags', () => {
    const v = buildResponseView({ content: 'HELLO' });
    expect(evaluateCorrect({ type: 'regex', pattern: '(?i)^hello$' }, v).status).toBe('pass');
  });
});

describe('errors are errors, not fails', () => {
  const view = buildResponseView({ content: 'text' });

  it('an invalid regex is an error that names the assertion', () => {
    const r = evaluateCorrect({ type: 'regex', pattern: '(unclosed' }, view);
    expect(r.status).toBe('error');
    expect(r.explanation).toMatch(/invalid regex "\(unclosed"/);
  });

  it('an error anywhere makes the tree an error, even inside an any that another branch passes', () => {
    const r = evaluateCorrect(
      { any: [{ type: 'contains', value: 'text' }, { name: 'bad', assertions: [{ type: 'regex', pattern: '[' }] }] },
      view,
    );
    expect(r.status).toBe('error');
    expect(r.explanation).toMatch(/^any: branch 2 'bad': 'bad' assertion 1: regex/);
  });

  it('an inline flag with no JS equivalent is an error', () => {
    expect(evaluateCorrect({ type: 'regex', pattern: '(?x)a b' }, view).status).toBe('error');
  });

  it('a JSONPath filter that throws is an error', () => {
    expect(evaluateCorrect({ type: 'jsonpath_exists', path: '$..[?(process.exit())]' }, view).status).toBe('error');
  });
});
