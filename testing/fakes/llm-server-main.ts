/**
 * The fake LLM standalone, for trying Assay end to end without any provider account:
 *   npm run fake-llm            (PORT=4010 by default; FAKE_LLM_LATENCY_MS to slow it down)
 * then start Assay with ASSAY_LLM_BASE_URL pointing at it. Rules can be replaced at run time
 * with `POST /__fake/rules` (see llm-server-admin.ts).
 */
import { startFakeLlm, type RuleInput } from './llm-server';
import { SOEV_EXAMPLE_RULES } from './soev-example-rules';

/** Assay's judge requests (any judge model): recognised by the judge protocol's system prompt. */
const JUDGE = /impartial evaluator/;

const DEMO_RULES: RuleInput[] = [
  // blueprints/soev-example's system under test (SOEV_URL=<origin>/soev) and its criterion
  // questions to a judge whose model name holds "judge" (`--judges openai:judge`); first, as
  // they match only the soev models and the criterion kinds' own questions.
  ...SOEV_EXAMPLE_RULES,
  // A true/false (noul) question: options A. False, B. True.
  { name: 'judge-noul', system: JUDGE, lastUser: /B\. True: the statement holds/, judge: { labels: { A: 0.2, B: 0.8 }, reasoning: 'Mostly holds.' } },
  // A plain-string point: the five classes A (absent) … E (fully present).
  { name: 'judge-scale', system: JUDGE, lastUser: /E\. CLASS_FULLY_PRESENT/, judge: { labels: { A: 0.05, C: 0.1, D: 0.25, E: 0.6 }, reasoning: 'Largely covered.' } },
  // Any other question (score levels, choice options).
  { name: 'judge-other', system: JUDGE, judge: { labels: { A: 0.1, B: 0.3, C: 0.6 }, reasoning: 'Third option fits best.' } },
  { name: 'weather-tool', lastUser: /weather/i, toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
  { name: 'capital', lastUser: 'capital of France', reply: 'The capital of France is Paris.' },
  { name: 'refusal', lastUser: /how do I pick a lock/i, reply: "I can't help with that." },
];

const port = Number(process.env.PORT ?? 4010);
const latencyMs = Number(process.env.FAKE_LLM_LATENCY_MS ?? 0);
// FAKE_LLM_BATCH_DELAY_MS: how long a batch takes to complete (so `assay run --batch` is seen polling)
const fake = await startFakeLlm({ port, rules: DEMO_RULES, latencyMs, batch: { delayMs: Number(process.env.FAKE_LLM_BATCH_DELAY_MS ?? 0) } });

console.log(`Fake LLM listening on ${fake.origin}`);
console.log(`  OpenAI:    POST ${fake.url}/chat/completions   Anthropic: POST ${fake.url}/messages`);
console.log(`  Gemini:    POST ${fake.origin}/v1beta/models/{model}:generateContent (google:… models)`);
console.log(`  Custom:    POST ${fake.origin}/custom/chat       Models:    GET ${fake.url}/models`);
console.log(`  soev:      POST ${fake.origin}/soev/api/v1/threads/runs (SOEV_URL=${fake.origin}/soev; replies cite with [cite:id])`);
console.log(`  Embeddings: POST ${fake.url}/embeddings, ${fake.origin}/v1beta/models/{model}:batchEmbedContents, ${fake.origin}/custom/embed`);
console.log('              (fake-embed-large: 256 dims, fake-embed-small: 64 dims and noisier)');
console.log(`  Batches:   POST ${fake.url}/files + ${fake.url}/batches (OpenAI)   POST ${fake.url}/messages/batches (Anthropic)`);
console.log(`  Admin:     GET ${fake.origin}/__fake/{stats,billing}, POST ${fake.origin}/__fake/{rules,faults,served,batch,reset}`);
console.log('');
console.log('Point Assay at it (any key works; none is needed):');
console.log(`  ASSAY_LLM_BASE_URL=${fake.url} npm run dev`);
console.log(`  ASSAY_LLM_BASE_URL=${fake.url} npm run assay -- run blueprints/…`);

const stop = (): void => {
  void fake.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
