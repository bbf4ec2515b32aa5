/**
 * The fake refuses a `tools` list that the real API would refuse, per dialect, with the error
 * body that API sends, so a tool sent in the wrong shape (a Weval tool `{name, description,
 * schema}` passed through unchanged, a schema dropped) fails in tests as it fails against the
 * provider. Built from the providers' published definitions, not from what Assay sends:
 *
 * - OpenAI Chat Completions: `tools[]` is ChatCompletionTool, a ChatCompletionFunctionTool
 *   `{type: "function", function: FunctionDefinition}` or a ChatCompletionCustomTool
 *   `{type: "custom", custom: {name, description?, format?}}` (OpenAI API reference, Chat
 *   Completions > Create, `tools`: ChatCompletionFunctionTool, ChatCompletionCustomTool,
 *   FunctionDefinition; openai-node resources/chat/completions/completions.d.ts,
 *   resources/shared.d.ts FunctionDefinition:
 *   "name … Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of
 *   64"; `parameters` "described as a JSON Schema object"; `strict` boolean). The error body is
 *   OpenAI's `{error: {message, type: "invalid_request_error", param, code}}` as its API returns
 *   it for these cases (messages as reported in openai/openai-cookbook#1248 "Missing required
 *   parameter: 'tools[0].type'." and Vortiago/mcp-azure-devops#30 "Invalid
 *   'tools[21].function.name': string does not match pattern…", code `invalid_value`).
 * - Anthropic Messages: `tools[]` is ToolUnion; a client tool is Tool `{name, input_schema,
 *   description?, type?: "custom" | null, …}` with Tool.InputSchema `{type: "object", …}`
 *   required (@anthropic-ai/sdk resources/messages/messages.d.ts Tool); the server tools of the
 *   union carry a versioned `type` (`web_search_20250305`, `bash_20250124`…). The error body is
 *   `{type: "error", error: {type: "invalid_request_error", message}}` with the message naming
 *   the field as the API does (`tools.0.custom.input_schema: Field required`, reported in
 *   Kilo-Org/kilocode#12238 and su-kaka/gcli2api#392).
 * - Gemini generateContent: `tools[]` is Tool `{functionDeclarations?: FunctionDeclaration[], …}`
 *   and FunctionDeclaration is `{name, description?, parameters? | parametersJsonSchema?, …}`
 *   with `parameters` and `parametersJsonSchema` mutually exclusive, the name starting with a
 *   letter or underscore, of a-z A-Z 0-9 _ . : -, at most 64 (@google/genai genai.d.ts
 *   FunctionDeclaration, Tool). Google's REST API answers an unknown field with 400
 *   INVALID_ARGUMENT "Invalid JSON payload received. Unknown name …" (google.rpc.Status).
 */

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A refused `tools` list: the HTTP 400 body to send, as the dialect's API would. */
export class ToolShapeError extends Error {
  constructor(
    message: string,
    readonly body: Json,
  ) {
    super(message);
  }
}

/** OpenAI FunctionDefinition.name: a-z, A-Z, 0-9, underscores and dashes, at most 64. */
const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** The FunctionDefinition fields the spec names; anything else is an unknown parameter. */
const OPENAI_FUNCTION_KEYS = ['name', 'description', 'parameters', 'strict'];
const OPENAI_TOOL_TYPES = ['function', 'custom'];

function openAiError(message: string, param: string, code: string): ToolShapeError {
  return new ToolShapeError(message, { error: { message, type: 'invalid_request_error', param, code } });
}

/** Throws OpenAI's 400 for the first tool that is not a documented ChatCompletionTool. */
export function checkOpenAiTools(tools: unknown): void {
  if (tools === undefined) return;
  if (!Array.isArray(tools)) throw openAiError(`Invalid type for 'tools': expected an array, but got ${typeof tools} instead.`, 'tools', 'invalid_type');
  tools.forEach((tool, i) => {
    const at = `tools[${i}]`;
    if (!isRecord(tool)) throw openAiError(`Invalid type for '${at}': expected an object, but got ${typeof tool} instead.`, at, 'invalid_type');
    if (tool.type === undefined) throw openAiError(`Missing required parameter: '${at}.type'.`, `${at}.type`, 'missing_required_parameter');
    if (typeof tool.type !== 'string' || !OPENAI_TOOL_TYPES.includes(tool.type)) {
      throw openAiError(`Invalid value: '${String(tool.type)}'. Supported values are: 'function' and 'custom'.`, `${at}.type`, 'invalid_value');
    }
    const key = tool.type;
    const unknown = Object.keys(tool).find((k) => k !== 'type' && k !== key);
    if (unknown) throw openAiError(`Unknown parameter: '${at}.${unknown}'.`, `${at}.${unknown}`, 'unknown_parameter');
    const fn = tool[key];
    if (fn === undefined) throw openAiError(`Missing required parameter: '${at}.${key}'.`, `${at}.${key}`, 'missing_required_parameter');
    if (!isRecord(fn)) throw openAiError(`Invalid type for '${at}.${key}': expected an object, but got ${typeof fn} instead.`, `${at}.${key}`, 'invalid_type');
    if (fn.name === undefined) throw openAiError(`Missing required parameter: '${at}.${key}.name'.`, `${at}.${key}.name`, 'missing_required_parameter');
    if (typeof fn.name !== 'string' || !OPENAI_NAME.test(fn.name)) {
      throw openAiError(`Invalid '${at}.${key}.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`, `${at}.${key}.name`, 'invalid_value');
    }
    if (key !== 'function') return;
    const extra = Object.keys(fn).find((k) => !OPENAI_FUNCTION_KEYS.includes(k));
    if (extra) throw openAiError(`Unknown parameter: '${at}.function.${extra}'.`, `${at}.function.${extra}`, 'unknown_parameter');
    if (fn.description !== undefined && typeof fn.description !== 'string') {
      throw openAiError(`Invalid type for '${at}.function.description': expected a string, but got ${typeof fn.description} instead.`, `${at}.function.description`, 'invalid_type');
    }
    if (fn.parameters !== undefined && !isRecord(fn.parameters)) {
      throw openAiError(`Invalid type for '${at}.function.parameters': expected an object, but got ${typeof fn.parameters} instead.`, `${at}.function.parameters`, 'invalid_type');
    }
    if (fn.strict !== undefined && fn.strict !== null && typeof fn.strict !== 'boolean') {
      throw openAiError(`Invalid type for '${at}.function.strict': expected a boolean, but got ${typeof fn.strict} instead.`, `${at}.function.strict`, 'invalid_type');
    }
  });
}

function anthropicError(message: string): ToolShapeError {
  return new ToolShapeError(message, { type: 'error', error: { type: 'invalid_request_error', message } });
}

/** A server tool of Anthropic's ToolUnion: its `type` is a versioned name such as `web_search_20250305`. */
const ANTHROPIC_SERVER_TOOL = /^[a-z_]+_\d{8}$/;
/** Tool's own fields (messages.d.ts); an unknown one is refused ("Extra inputs are not permitted"). */
const ANTHROPIC_TOOL_KEYS = ['name', 'input_schema', 'description', 'type', 'cache_control', 'strict', 'defer_loading', 'eager_input_streaming', 'input_examples', 'allowed_callers'];

/** Throws Anthropic's 400 for the first tool that is not a documented Tool (or server tool). */
export function checkAnthropicTools(tools: unknown): void {
  if (tools === undefined) return;
  if (!Array.isArray(tools)) throw anthropicError('tools: Input should be a valid list');
  tools.forEach((tool, i) => {
    if (!isRecord(tool)) throw anthropicError(`tools.${i}: Input should be a valid dictionary`);
    if (typeof tool.type === 'string' && tool.type !== 'custom') {
      if (!ANTHROPIC_SERVER_TOOL.test(tool.type)) throw anthropicError(`tools.${i}: Input tag '${tool.type}' found using 'type' does not match any of the expected tags`);
      if (typeof tool.name !== 'string') throw anthropicError(`tools.${i}.${tool.type}.name: Field required`);
      return;
    }
    const at = `tools.${i}.custom`;
    if (typeof tool.name !== 'string' || tool.name === '') throw anthropicError(`${at}.name: Field required`);
    const extra = Object.keys(tool).find((k) => !ANTHROPIC_TOOL_KEYS.includes(k));
    if (extra) throw anthropicError(`${at}.${extra}: Extra inputs are not permitted`);
    if (tool.input_schema === undefined) throw anthropicError(`${at}.input_schema: Field required`);
    if (!isRecord(tool.input_schema)) throw anthropicError(`${at}.input_schema: Input should be a valid dictionary`);
    if (tool.input_schema.type === undefined) throw anthropicError(`${at}.input_schema.type: Field required`);
    if (tool.input_schema.type !== 'object') throw anthropicError(`${at}.input_schema.type: Input should be 'object'`);
    if (tool.description !== undefined && typeof tool.description !== 'string') throw anthropicError(`${at}.description: Input should be a valid string`);
  });
}

function geminiError(message: string): ToolShapeError {
  return new ToolShapeError(message, { error: { code: 400, message, status: 'INVALID_ARGUMENT' } });
}

/** FunctionDeclaration.name: starts with a letter or underscore; a-z, A-Z, 0-9, _ . : -; at most 64. */
const GEMINI_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;
const GEMINI_DECLARATION_KEYS = ['name', 'description', 'parameters', 'parametersJsonSchema', 'response', 'responseJsonSchema', 'behavior'];
const GEMINI_TOOL_KEYS = ['functionDeclarations', 'retrieval', 'googleSearchRetrieval', 'googleSearch', 'codeExecution', 'urlContext', 'computerUse', 'fileSearch', 'googleMaps', 'enterpriseWebSearch', 'mcpServers'];

/**
 * Throws Gemini's 400 for the first `tools` entry that is not a documented Tool, or a function
 * declaration that is not a documented FunctionDeclaration. For the Gemini dialect's request
 * parser (the `tools` of a generateContent body).
 */
export function checkGeminiTools(tools: unknown): void {
  if (tools === undefined) return;
  if (!Array.isArray(tools)) throw geminiError(`Invalid value at 'tools' (type.googleapis.com/google.ai.generativelanguage.v1beta.Tool), expected a list`);
  tools.forEach((tool, i) => {
    if (!isRecord(tool)) throw geminiError(`Invalid value at 'tools[${i}]': expected an object`);
    const unknownKey = Object.keys(tool).find((k) => !GEMINI_TOOL_KEYS.includes(k) && !GEMINI_TOOL_KEYS.includes(camel(k)));
    if (unknownKey) throw geminiError(`Invalid JSON payload received. Unknown name "${unknownKey}" at 'tools[${i}]': Cannot find field.`);
    const declarations = tool.functionDeclarations ?? tool.function_declarations;
    if (declarations === undefined) return;
    if (!Array.isArray(declarations)) throw geminiError(`Invalid value at 'tools[${i}].function_declarations': expected a list`);
    declarations.forEach((d, j) => {
      const at = `tools[${i}].function_declarations[${j}]`;
      if (!isRecord(d)) throw geminiError(`Invalid value at '${at}': expected an object`);
      const extra = Object.keys(d).find((k) => !GEMINI_DECLARATION_KEYS.includes(k) && !GEMINI_DECLARATION_KEYS.includes(camel(k)));
      if (extra) throw geminiError(`Invalid JSON payload received. Unknown name "${extra}" at '${at}': Cannot find field.`);
      if (typeof d.name !== 'string' || !GEMINI_NAME.test(d.name)) {
        throw geminiError(`GenerateContentRequest.${at}.name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.`);
      }
      const params = d.parameters;
      const jsonSchema = d.parametersJsonSchema ?? d.parameters_json_schema;
      if (params !== undefined && jsonSchema !== undefined) throw geminiError(`GenerateContentRequest.${at}: parameters and parameters_json_schema are mutually exclusive`);
      if (params !== undefined && !isRecord(params)) throw geminiError(`Invalid value at '${at}.parameters': expected a Schema object`);
      if (jsonSchema !== undefined && !(isRecord(jsonSchema) && jsonSchema.type === 'object')) {
        throw geminiError(`GenerateContentRequest.${at}.parameters_json_schema: the schema must describe an object`);
      }
    });
  });
}

/** The REST API accepts proto field names in snake_case as well as their JSON (camelCase) names. */
function camel(key: string): string {
  return key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}
