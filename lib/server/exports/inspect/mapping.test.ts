import { describe, expect, it } from 'vitest';
import { logHeader, inspectStatus, type ModelForExport, type RunForExport } from './log-header';
import { logSample, type ReplyForExport, type VerdictForExport } from './log-sample';
import { inspectModelName, inspectStopReason, logFileNames } from './names';
import { evalLogValidator } from './schema.testkit';

const RUN: RunForExport = {
  id: 'run1',
  status: 'completed',
  trigger: 'cli',
  parentRunId: null,
  createdAt: new Date('2026-01-02T03:04:05Z'),
  startedAt: new Date('2026-01-02T03:04:06Z'),
  finishedAt: new Date('2026-01-02T03:05:00Z'),
  error: null,
  sourceCommit: 'abc123',
  judges: [{ model: 'openai:judge', approach: 'standard' }],
  blueprint: { id: 'orders', title: 'Orders', description: null, path: 'orders.yml', tags: ['b', 'a', 'b'] },
  version: { id: 'v1', contentHash: 'hash1' },
  source: { kind: 'github', owner: 'acme', repo: 'evals' },
  sealedPrompts: 2,
};

const MODEL: ModelForExport = {
  modelId: 'openai:alpha',
  summary: { score: 0.75, interval: { low: 0.5, high: 0.9, level: 0.95, method: 'percentile-bootstrap', n: 6, clusters: 3, resamples: 1000 }, attemptCount: 6, promptCount: 3, errorCount: 1, withheldReason: null },
  totals: { samples: 4, completed: 3, inputTokens: 100, outputTokens: 40, costUsd: null, epochs: 2, variants: false },
};

const verdict = (v: Partial<VerdictForExport>): VerdictForExport => ({
  pointIndex: 0,
  status: 'pass',
  score: 1,
  kind: 'function',
  pointText: 'contains("48213")',
  fn: 'contains',
  args: ['48213'],
  weight: 1,
  gate: false,
  path: null,
  source: 'should',
  distribution: null,
  method: 'function',
  detail: 'found',
  reasoning: null,
  judges: null,
  spread: null,
  disagreement: false,
  ...v,
});

const PROMPT = {
  promptKey: 'remember',
  position: 0,
  messages: [
    { role: 'user', content: 'My order is 48213.' },
    { role: 'assistant', content: null },
    { role: 'user', content: 'Which order was it?' },
  ],
  ideal: 'Order 48213.',
  category: null,
};

const REPLY: ReplyForExport = {
  id: 'reply1',
  promptKey: 'remember',
  modelId: 'openai:alpha',
  systemIndex: 0,
  temperatureIndex: 0,
  temperature: null,
  attempt: 1,
  turns: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'My order is 48213.' },
    { role: 'assistant', content: 'Noted.' },
    { role: 'user', content: 'Which order was it?' },
    { role: 'assistant', content: 'It was 48213.' },
  ],
  content: 'It was 48213.',
  toolCalls: null,
  finishReason: 'stop',
  refusal: null,
  promptTokens: 20,
  completionTokens: 5,
  latencyMs: 1500,
  costUsd: 0.001,
  error: null,
  errorKind: null,
  servedModel: 'alpha-2026',
  createdAt: new Date('2026-01-02T03:04:30Z'),
  attemptScore: { score: 0.5, errorCount: 1, gateFailed: false, noApplicable: false, passed: null },
  verdicts: [
    verdict({}),
    verdict({ pointIndex: 1, status: 'error', score: null, kind: 'text', pointText: 'Confirms the order', fn: null, args: null, method: null, detail: 'judge unavailable' }),
    verdict({
      pointIndex: 2,
      status: 'fail',
      score: 0.2,
      kind: 'text',
      method: 'logprobs',
      detail: null,
      reasoning: 'barely',
      distribution: { A: 0.8, E: 0.2 },
      judges: [{ judge: 'openai:judge', approach: 'standard', score: 0.2, distribution: { A: 0.8, E: 0.2 }, method: 'logprobs', reasoning: 'barely', error: null }],
    }),
  ],
};

const CTX = { runId: 'run1', blueprintId: 'orders', versionId: 'v1', variants: false };

describe('an Inspect sample from a stored reply', () => {
  const sample = logSample(CTX, REPLY, PROMPT);

  it('takes the input up to the first generated turn and the whole conversation as messages', () => {
    expect(sample.input).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'My order is 48213.' },
    ]);
    expect(sample.messages.map((m) => [m.role, m.content])).toEqual([
      ['system', 'Be brief.'],
      ['user', 'My order is 48213.'],
      ['assistant', 'Noted.'],
      ['user', 'Which order was it?'],
      ['assistant', 'It was 48213.'],
    ]);
    expect(sample.messages[2]).toMatchObject({ model: 'openai/alpha', source: 'generate' });
  });

  it('is identified by prompt key and epoch (attempt + 1), with our ids in its metadata', () => {
    expect(sample).toMatchObject({ id: 'remember', epoch: 2, target: 'Order 48213.', uuid: 'reply1', error: null });
    expect(sample.metadata).toMatchObject({ run_id: 'run1', blueprint_id: 'orders', version_id: 'v1', prompt_key: 'remember', reply_id: 'reply1', attempt: 1 });
    expect(logSample({ ...CTX, variants: true }, { ...REPLY, systemIndex: 1, temperatureIndex: 2 }, PROMPT).id).toBe('remember#s1-t2');
  });

  it('carries the reply as the output, with its stop reason and usage', () => {
    expect(sample.output).toMatchObject({ model: 'openai/alpha', completion: 'It was 48213.', time: 1.5, usage: { input_tokens: 20, output_tokens: 5, total_tokens: 25, total_cost: 0.001 } });
    expect(sample.output.choices).toEqual([{ message: expect.objectContaining({ role: 'assistant', content: 'It was 48213.' }), stop_reason: 'stop' }]);
    expect(sample.model_usage).toEqual({ 'openai/alpha': sample.output.usage });
  });

  it('scores the attempt under `assay` and each point by its index; an unscored verdict keeps its status, not a zero', () => {
    expect(Object.keys(sample.scores!)).toEqual(['assay', 'point_0', 'point_1', 'point_2']);
    expect(sample.scores!.assay!.value).toBe(0.5);
    expect(sample.scores!.point_0).toMatchObject({ value: 1, explanation: 'found', metadata: { status: 'pass', method: 'function', fn: 'contains' } });
    expect(sample.scores!.point_1).toMatchObject({ value: 'error', explanation: 'judge unavailable', metadata: { status: 'error' } });
    expect(sample.scores!.point_2).toMatchObject({ value: 0.2, explanation: 'barely', metadata: { distribution: { A: 0.8, E: 0.2 }, judges: [expect.objectContaining({ judge: 'openai:judge' })] } });
  });

  it('turns a failed reply into a sample error, with no output choice and no attempt score', () => {
    const failed = logSample(CTX, { ...REPLY, error: 'context too long', errorKind: 'invalid_request', content: '', turns: PROMPT.messages, attemptScore: null, verdicts: [], promptTokens: null, completionTokens: null }, PROMPT);
    expect(failed.error).toEqual({ message: 'invalid_request: context too long', traceback: '', traceback_ansi: '' });
    expect(failed.output).toMatchObject({ choices: [], completion: '', error: 'invalid_request: context too long', usage: null });
    expect(failed.messages).toEqual([{ role: 'user', content: 'My order is 48213.' }]);
    expect(failed.scores).toBeNull();
  });

  it('marks a refusal on the text and carries tool calls, with arguments that are not an object kept verbatim', () => {
    const s = logSample(CTX, { ...REPLY, refusal: 'message.refusal', toolCalls: [{ name: 'lookup', arguments: { id: 1 } }, { id: 'c2', name: 'raw', arguments: 'not json' }] }, PROMPT);
    const message = s.output.choices[0]!.message;
    expect(message.content).toEqual([{ type: 'text', text: 'It was 48213.', refusal: true }]);
    expect(message.role === 'assistant' && message.tool_calls).toEqual([
      { id: 'call_0', function: 'lookup', arguments: { id: 1 }, type: 'function' },
      { id: 'c2', function: 'raw', arguments: {}, type: 'function', parse_error: 'not json' },
    ]);
    expect(s.messages.at(-1)).toEqual(message);
  });
});

describe("an Inspect log header from a run and a model's stored summary", () => {
  const header = logHeader(RUN, MODEL);

  it('names the task after the blueprint and the model as Inspect does', () => {
    expect(header.eval).toMatchObject({ run_id: 'run1', eval_id: 'run1-openai-alpha', task: 'orders', task_id: 'v1', task_version: 'hash1', task_display_name: 'Orders', model: 'openai/alpha', created: '2026-01-02T03:04:05.000Z' });
    expect(header.eval.revision).toEqual({ type: 'git', origin: 'https://github.com/acme/evals', commit: 'abc123' });
    expect(header.tags).toEqual(['a', 'b']);
  });

  it('reports the stored score and interval, the score first (Inspect reads the first metric as the headline)', () => {
    const score = header.results!.scores[0]!;
    expect(Object.keys(score.metrics)).toEqual(['score', 'ci_low', 'ci_high']);
    expect(score.metrics.score!.value).toBe(0.75);
    expect([score.metrics.ci_low!.value, score.metrics.ci_high!.value]).toEqual([0.5, 0.9]);
    expect(header.results).toMatchObject({ total_samples: 4, completed_samples: 3 });
  });

  it('gives a withheld score no metric, and says why', () => {
    const withheld = logHeader(RUN, { ...MODEL, summary: { ...MODEL.summary!, score: null, withheldReason: 'too few judged verdicts' } }).results!.scores[0]!;
    expect(withheld.metrics).toEqual({});
    expect(withheld.metadata).toMatchObject({ withheld_reason: 'too few judged verdicts' });
  });

  it('records how many sealed prompts were left out, in the log and in eval.metadata (Inspect rebuilds the one from the other)', () => {
    expect(header.metadata).toMatchObject({ sealed_prompts_left_out: 2 });
    expect(header.eval.metadata).toEqual(header.metadata);
  });

  it('maps run states to Inspect statuses, with the run error as the log error', () => {
    expect(['completed', 'cancelled', 'failed', 'budget_exceeded', 'running'].map(inspectStatus)).toEqual(['success', 'cancelled', 'error', 'error', 'started']);
    expect(logHeader({ ...RUN, status: 'budget_exceeded', error: 'budget reached' }, MODEL).error).toEqual({ message: 'budget reached', traceback: '', traceback_ansi: '' });
    expect(header.error).toBeNull();
  });
});

describe('names and the published schema', () => {
  it('maps provider finish reasons as Inspect providers do', () => {
    expect(['stop', 'length', 'end_turn', 'tool_use', 'MAX_TOKENS', 'SAFETY', 'model_context_window_exceeded', null, 'odd'].map(inspectStopReason)).toEqual(['stop', 'max_tokens', 'stop', 'tool_calls', 'max_tokens', 'content_filter', 'model_length', 'unknown', 'unknown']);
  });

  it('names models and files without collisions', () => {
    expect(inspectModelName('openrouter:openai/gpt-4o')).toBe('openrouter/openai/gpt-4o');
    expect([...logFileNames('r', ['openai:a', 'openai/a', 'x']).values()]).toEqual(['r-openai-a.json', 'r-openai-a-2.json', 'r-x.json']);
  });

  it('writes a log the published EvalLog schema accepts', () => {
    const validate = evalLogValidator();
    const failed = logSample(CTX, { ...REPLY, id: 'reply2', error: 'boom', errorKind: null, attemptScore: null, verdicts: [] }, PROMPT);
    expect(validate({ ...logHeader(RUN, MODEL), samples: [logSample(CTX, REPLY, PROMPT), failed] })).toEqual([]);
    expect(validate({ ...logHeader({ ...RUN, status: 'failed', error: 'x', source: null, startedAt: null, finishedAt: null }, { ...MODEL, summary: null }), samples: [] })).toEqual([]);
    // a check the validator can fail
    expect(validate({ ...logHeader(RUN, MODEL), status: 'done' })).not.toEqual([]);
  });
});
