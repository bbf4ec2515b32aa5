import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from './llm-server';
import { checkAnthropicTools, checkGeminiTools, checkOpenAiTools, ToolShapeError } from './llm-server-tools';

const SCHEMA = { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] };
/** A tool as Weval writes it: not a shape any of the three APIs accepts. */
const WEVAL_TOOL = { name: 'search', description: 'Search.', schema: SCHEMA };

const refusal = (check: () => void): unknown => {
  try {
    check();
  } catch (e) {
    if (e instanceof ToolShapeError) return e.body;
    throw e;
  }
  return null;
};

describe('OpenAI tools[]: only ChatCompletionTool', () => {
  it('accepts function tools (parameters, description and strict optional) and custom tools', () => {
    expect(refusal(() => checkOpenAiTools([{ type: 'function', function: { name: 'search', description: 'Search.', parameters: SCHEMA, strict: true } }, { type: 'function', function: { name: 'ping' } }]))).toBeNull();
    expect(refusal(() => checkOpenAiTools([{ type: 'custom', custom: { name: 'grammar_tool' } }]))).toBeNull();
    expect(refusal(() => checkOpenAiTools(undefined))).toBeNull();
  });

  it("refuses Weval's shape, naming the param, with OpenAI's invalid_request_error body", () => {
    expect(refusal(() => checkOpenAiTools([WEVAL_TOOL]))).toEqual({
      error: { message: "Missing required parameter: 'tools[0].type'.", type: 'invalid_request_error', param: 'tools[0].type', code: 'missing_required_parameter' },
    });
  });

  it.each([
    [{ type: 'tool', function: { name: 'a' } }, 'tools[0].type', 'invalid_value'],
    [{ type: 'function', name: 'a', function: { name: 'a' } }, 'tools[0].name', 'unknown_parameter'],
    [{ type: 'function' }, 'tools[0].function', 'missing_required_parameter'],
    [{ type: 'function', function: { description: 'x' } }, 'tools[0].function.name', 'missing_required_parameter'],
    [{ type: 'function', function: { name: 'get weather' } }, 'tools[0].function.name', 'invalid_value'],
    [{ type: 'function', function: { name: 'x'.repeat(65) } }, 'tools[0].function.name', 'invalid_value'],
    [{ type: 'function', function: { name: 'a', schema: SCHEMA } }, 'tools[0].function.schema', 'unknown_parameter'],
    [{ type: 'function', function: { name: 'a', parameters: 'object' } }, 'tools[0].function.parameters', 'invalid_type'],
  ])('refuses %j at %s (%s)', (tool, param, code) => {
    expect(refusal(() => checkOpenAiTools([tool]))).toMatchObject({ error: { type: 'invalid_request_error', param, code } });
  });
});

describe('Anthropic tools[]: Tool needs name and an object input_schema', () => {
  it('accepts a custom tool and a server tool', () => {
    expect(refusal(() => checkAnthropicTools([{ name: 'search', description: 'Search.', input_schema: SCHEMA }, { type: 'web_search_20250305', name: 'web_search' }]))).toBeNull();
  });

  it.each([
    [WEVAL_TOOL, 'tools.0.custom.schema: Extra inputs are not permitted'],
    [{ name: 'search' }, 'tools.0.custom.input_schema: Field required'],
    [{ name: 'search', input_schema: { properties: {} } }, 'tools.0.custom.input_schema.type: Field required'],
    [{ name: 'search', input_schema: { type: 'array' } }, "tools.0.custom.input_schema.type: Input should be 'object'"],
    [{ input_schema: SCHEMA }, 'tools.0.custom.name: Field required'],
    [{ type: 'function', function: { name: 'search', parameters: SCHEMA } }, "tools.0: Input tag 'function' found using 'type' does not match any of the expected tags"],
  ])('refuses %j: %s', (tool, message) => {
    expect(refusal(() => checkAnthropicTools([tool]))).toEqual({ type: 'error', error: { type: 'invalid_request_error', message } });
  });
});

describe('Gemini tools[]: functionDeclarations of FunctionDeclaration', () => {
  it('accepts parametersJsonSchema or parameters, and a declaration without either', () => {
    expect(refusal(() => checkGeminiTools([{ functionDeclarations: [{ name: 'search', description: 'Search.', parametersJsonSchema: SCHEMA }, { name: 'ping' }] }]))).toBeNull();
    expect(refusal(() => checkGeminiTools([{ function_declarations: [{ name: 'search', parameters: { type: 'OBJECT', properties: { query: { type: 'STRING' } } } }] }]))).toBeNull();
  });

  it.each([
    [[WEVAL_TOOL], /Unknown name "name" at 'tools\[0\]'/],
    [[{ functionDeclarations: [WEVAL_TOOL] }], /Unknown name "schema" at 'tools\[0\]\.function_declarations\[0\]'/],
    [[{ functionDeclarations: [{ name: '1search' }] }], /Invalid function name/],
    [[{ functionDeclarations: [{ name: 'a', parameters: SCHEMA, parametersJsonSchema: SCHEMA }] }], /mutually exclusive/],
  ])('refuses %j', (tools, message) => {
    const body = refusal(() => checkGeminiTools(tools)) as { error: { code: number; status: string; message: string } };
    expect(body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(body.error.message).toMatch(message);
  });
});

describe('the fake answers a refused tools list with the API’s 400 body', () => {
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm({ rules: [] });
  });
  afterAll(() => fake?.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${fake.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('OpenAI dialect', async () => {
    const res = await post('/v1/chat/completions', { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], tools: [WEVAL_TOOL] });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { param: 'tools[0].type', type: 'invalid_request_error' } });
  });

  it('Anthropic dialect', async () => {
    const res = await post('/v1/messages', { model: 'claude-3-5-haiku', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], tools: [{ name: 'search' }] }, { 'anthropic-version': '2023-06-01' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'tools.0.custom.input_schema: Field required' } });
  });
});
