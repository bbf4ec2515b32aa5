/**
 * Weval's tool-use blueprint from the corpus (weval-configs tool-use-test.yml: six prompts of
 * `$tool_called`, `$tool_args_match`, `$tool_call_count_between`, `$tool_call_order`, one with
 * alternative paths) run through the pipeline against the fake in every provider dialect:
 * OpenRouter (OpenAI chat completions), Anthropic messages and Gemini generateContent.
 *
 * - As written (`toolUse.mode: trace-only`, Weval's only mode): no tools are sent to any
 *   provider, and the model's TOOL_CALL lines are what the tool points read.
 * - In Assay's `native` mode: the tools are sent in each provider's documented shape (the fake
 *   refuses any other with the provider's 400: testing/fakes/llm-server-tools.ts), the provider
 *   answers with native tool calls, and those are what the tool points read.
 * Either way every prompt scores 1 for every model, because the scripted calls are the right ones.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseStoredOrNull, StoredToolCallsSchema } from '@/lib/core';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import type { RuleInput } from '@/testing/fakes/llm-server-rules';
import { corpusFile, needsCorpus, WEVAL_CORPUS } from '@/testing/outside-data';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { executeRun } from '../engine/execute-run';
import { requestRun } from '../request-run';
import { forgetRunContext } from '../engine/run-context';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../runs.testkit';

const FILE = 'blueprints/tool-use-test.yml';

/** One model per dialect: OpenRouter speaks OpenAI's chat completions. */
const MODELS = ['openrouter:openai/gpt-4o-mini', 'anthropic:claude-3-5-haiku-20241022', 'google:gemini-2.5-flash'];

type Call = { name: string; arguments: Record<string, unknown> };
/** The right calls for each prompt of the corpus file, keyed by a phrase of its user turn. */
const ANSWERS: { lastUser: RegExp; calls: Call[]; text?: string }[] = [
  { lastUser: /Compute \(312\*49\) - 777/, calls: [{ name: 'calculator', arguments: { expression: '(312 * 49) - 777' } }] },
  {
    lastUser: /First, call search for "Article 2"/,
    calls: [
      { name: 'search', arguments: { query: 'Article 2' } },
      { name: 'retrieve', arguments: { docId: '42' } },
    ],
  },
  { lastUser: /Retrieve docId "41" and include snippet/, calls: [{ name: 'retrieve', arguments: { docId: '41', options: { snippet: true, maxChars: 120 } } }] },
  { lastUser: /Do NOT call any tool/, calls: [], text: 'OK' },
  {
    // path B of the alternative paths
    lastUser: /You can solve this either by/,
    calls: [
      { name: 'retrieve', arguments: { docId: '42' } },
      { name: 'rerank', arguments: { ids: ['41', '42'], criterion: 'prefer 42' } },
    ],
  },
  {
    lastUser: /Make between 2 and 3 calls/,
    calls: [
      { name: 'search', arguments: { query: 'Article 1' } },
      { name: 'retrieve', arguments: { docId: '41' } },
      { name: 'rerank', arguments: { ids: ['41'], criterion: 'relevance' } },
    ],
  },
];

const traceLine = (c: Call) => `TOOL_CALL ${JSON.stringify(c)}`;
/** As Weval's prompt asks: one TOOL_CALL line per call, in the reply's text. */
const TRACE_RULES: RuleInput[] = ANSWERS.map((a) => ({ lastUser: a.lastUser, reply: a.calls.length ? a.calls.map(traceLine).join('\n') : a.text! }));
/** The provider's own tool calls (the fake renders them in each dialect's shape). */
const NATIVE_RULES: RuleInput[] = ANSWERS.map((a) => (a.calls.length ? { lastUser: a.lastUser, toolCalls: a.calls, reply: '' } : { lastUser: a.lastUser, reply: a.text! }));

/** The four tools of the corpus file, as each provider documents its tool shape. */
async function expectedTools(): Promise<{ openai: unknown[]; anthropic: unknown[]; gemini: unknown[] }> {
  const { parseBlueprint } = await import('@/lib/core');
  const parsed = parseBlueprint(corpusFile(FILE), { file: 'tool-use-test.yml' });
  if (!parsed.ok) throw new Error('the corpus file does not load');
  const tools = parsed.blueprint.tools as { name: string; description: string; schema: Record<string, unknown> }[];
  return {
    openai: tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.schema } })),
    anthropic: tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.schema })),
    gemini: [{ functionDeclarations: tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.schema })) }],
  };
}

describe.skipIf(!WEVAL_CORPUS)(needsCorpus(`Weval's tool-use blueprint in every provider dialect (${process.env.ASSAY_TEST_DB})`), () => {
  let t: TestDatabase;
  let fake: FakeLlm;
  let text: string;

  beforeAll(async () => {
    t = await freshDatabase();
    fake = await startFakeLlm({ rules: [] });
    text = corpusFile(FILE);
  });
  afterAll(async () => {
    await fake?.close();
    await t?.close();
  });
  beforeEach(() => fake.reset());

  async function run(path: string, blueprintText: string, rules: RuleInput[]) {
    fake.setRules(rules);
    const { blueprintId } = await storeBlueprint(t.db, path, blueprintText);
    const deps = await fakeDeps(t.db, fake.url);
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', models: MODELS }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, runId)).toBe('completed');
    forgetRunContext(runId);
    const replies = await t.db.reply.findMany({ where: { runId }, select: { promptKey: true, modelId: true, content: true, toolCalls: true, error: true } });
    expect(replies).toHaveLength(6 * MODELS.length);
    expect(replies.filter((r) => r.error !== null)).toEqual([]);
    const cells = await t.db.runCellSummary.findMany({ where: { runId }, select: { promptKey: true, modelId: true, score: true } });
    expect(cells).toHaveLength(6 * MODELS.length);
    // every prompt, every model: the tool points all pass (the best alternative path counts)
    expect(cells.filter((c) => c.score !== 1)).toEqual([]);
    expect(await t.db.verdict.count({ where: { runId, status: 'error' } })).toBe(0);
    const chats = fake.requests().filter((r) => r.path !== '/v1/batches' && r.path !== '/v1/messages/batches');
    // each dialect answered each prompt once
    expect(['openai', 'anthropic', 'gemini'].map((d) => chats.filter((r) => r.dialect === d && r.status === 200).length)).toEqual([6, 6, 6]);
    return { replies, chats };
  }

  it('trace-only, as written: no tools are sent to any provider, and the TOOL_CALL lines are graded', async () => {
    const { replies, chats } = await run('tool-use-test.yml', text, TRACE_RULES);
    expect(chats.map((r) => r.request.tools)).toEqual(chats.map(() => []));
    // the calls were read from the text: the provider returned none
    expect(replies.every((r) => r.toolCalls === null)).toBe(true);
    expect(replies.find((r) => r.promptKey === 'calc-basic')!.content).toBe(traceLine(ANSWERS[0]!.calls[0]!));
  });

  it("native: the tools go out in each provider's documented shape, and the provider's tool calls are graded", async () => {
    expect(text).toContain('mode: trace-only');
    const { replies, chats } = await run('tool-use-native-mode.yml', text.replace('mode: trace-only', 'mode: native'), NATIVE_RULES);
    const expected = await expectedTools();
    for (const r of chats) expect(r.request.tools).toEqual(expected[r.dialect as keyof typeof expected]);

    const calc = replies.filter((r) => r.promptKey === 'calc-basic');
    for (const r of calc) {
      expect(parseStoredOrNull(StoredToolCallsSchema, r.toolCalls, 'replies.tool_calls')?.map((c) => [c.name, c.arguments])).toEqual([['calculator', { expression: '(312 * 49) - 777' }]]);
      // and, as Weval's clients do, written as a TOOL_CALL line for the judges and later turns
      expect(r.content).toBe(traceLine(ANSWERS[0]!.calls[0]!));
    }
    const none = replies.filter((r) => r.promptKey === 'no-tools-allowed');
    expect(none.map((r) => [r.content, r.toolCalls])).toEqual(MODELS.map(() => ['OK', null]));
  });
});
