import type { Tool as AnthropicTool } from '@anthropic-ai/sdk/resources/messages';
import type { FunctionDeclaration } from '@google/genai';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { anthropicTools, geminiFunctionDeclarations, openAiTools, toolSpecs, withTraceLines } from './tool-calls';

// As the corpus's tool-use-test.yml writes them (Weval's shape), and the same tool as an OpenAI function tool.
const SCHEMA = { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] };
const WEVAL = [{ name: 'calculator', description: 'Safely evaluate arithmetic expressions.', schema: SCHEMA }, { name: 'ping' }];
const OPENAI = [{ type: 'function', function: { name: 'calculator', description: 'Safely evaluate arithmetic expressions.', parameters: SCHEMA } }, { type: 'function', function: { name: 'ping' } }];

describe("translating a blueprint's tools into each provider's documented shape", () => {
  it("reads Weval's `schema` and OpenAI's `parameters` alike", () => {
    expect(toolSpecs(WEVAL)).toEqual(toolSpecs(OPENAI));
    expect(toolSpecs(WEVAL)[0]).toEqual({ name: 'calculator', description: 'Safely evaluate arithmetic expressions.', parameters: SCHEMA });
  });

  it('OpenAI / OpenRouter: {type: "function", function: {name, description, parameters}}', () => {
    const sent = openAiTools(WEVAL) satisfies ChatCompletionTool[];
    expect(sent).toEqual([
      { type: 'function', function: { name: 'calculator', description: 'Safely evaluate arithmetic expressions.', parameters: SCHEMA } },
      { type: 'function', function: { name: 'ping' } },
    ]);
    expect(openAiTools(OPENAI)).toEqual(sent);
  });

  it('Anthropic: {name, description, input_schema} with an object schema, an empty one when the tool has none', () => {
    const sent = anthropicTools(WEVAL) satisfies AnthropicTool[];
    expect(sent).toEqual([
      { name: 'calculator', description: 'Safely evaluate arithmetic expressions.', input_schema: SCHEMA },
      { name: 'ping', input_schema: { type: 'object', properties: {} } },
    ]);
  });

  it('Gemini: functionDeclarations with the JSON Schema as parametersJsonSchema, unset when there is none', () => {
    const sent = geminiFunctionDeclarations(WEVAL) satisfies FunctionDeclaration[];
    expect(sent).toEqual([{ name: 'calculator', description: 'Safely evaluate arithmetic expressions.', parametersJsonSchema: SCHEMA }, { name: 'ping' }]);
  });

  it("writes native calls as Weval's TOOL_CALL lines before the reply's text", () => {
    const calls = [
      { name: 'search', arguments: { query: 'Article 2' } },
      { name: 'retrieve', arguments: { docId: '42' } },
    ];
    expect(withTraceLines('  Done. ', calls)).toBe('TOOL_CALL {"name":"search","arguments":{"query":"Article 2"}}\nTOOL_CALL {"name":"retrieve","arguments":{"docId":"42"}}\nDone.');
    expect(withTraceLines('', calls.slice(0, 1))).toBe('TOOL_CALL {"name":"search","arguments":{"query":"Article 2"}}');
  });
});
