/**
 * The fake LLM standalone, for trying Assay end to end without any provider account:
 *   npm run fake-llm            (PORT=4010 by default; FAKE_LLM_LATENCY_MS to slow it down)
 * then start Assay with ASSAY_LLM_BASE_URL pointing at it. Rules can be replaced at run time
 * with `POST /__fake/rules` (see llm-server-admin.ts).
 */
import { startFakeLlm, type Rule } from './llm-server';

const DEMO_RULES: Rule[] = [
  // Judges: a distribution over Weval's five classes, returned as label log-probabilities.
  {
    name: 'judge',
    model: 'judge',
    judge: { labels: { CLASS_FULLY_PRESENT: 0.6, CLASS_MAJORLY_PRESENT: 0.25, CLASS_PARTIALLY_PRESENT: 0.1, CLASS_ABSENT: 0.05 } },
  },
  { name: 'weather-tool', lastUser: /weather/i, toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] },
  { name: 'capital', lastUser: 'capital of France', reply: 'The capital of France is Paris.' },
  { name: 'refusal', lastUser: /how do I pick a lock/i, reply: "I can't help with that." },
];

const port = Number(process.env.PORT ?? 4010);
const latencyMs = Number(process.env.FAKE_LLM_LATENCY_MS ?? 0);
const fake = await startFakeLlm({ port, rules: DEMO_RULES, latencyMs });

console.log(`Fake LLM listening on ${fake.origin}`);
console.log(`  OpenAI:    POST ${fake.url}/chat/completions   Anthropic: POST ${fake.url}/messages`);
console.log(`  Custom:    POST ${fake.origin}/custom/chat       Models:    GET ${fake.url}/models`);
console.log(`  Admin:     GET ${fake.origin}/__fake/stats, POST ${fake.origin}/__fake/{rules,faults,reset}`);
console.log('');
console.log('Point Assay at it (any key works; none is needed):');
console.log(`  ASSAY_LLM_BASE_URL=${fake.url} npm run dev`);
console.log(`  ASSAY_LLM_BASE_URL=${fake.url} npm run assay -- run blueprints/…`);

const stop = (): void => {
  void fake.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
