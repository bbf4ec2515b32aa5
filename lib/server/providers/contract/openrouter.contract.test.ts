/**
 * OpenRouter's documented bodies and errors through the OpenAI-compatible adapter (OpenRouter is
 * that adapter with its base URL): errors inside a 200, a choice that ended in an error, 402 for
 * credits, 403 for moderation. Each example's source is in its fixture file.
 */
import { OpenAiCompatibleClient } from '../openai-compatible';
import { readOpenAiExample, runContract } from './contract.testkit';

runContract({
  provider: 'openrouter',
  model: 'openai/gpt-4o-mini',
  then: 'text-with-cost',
  read: (example) => readOpenAiExample('openrouter', 'openai/gpt-4o-mini', example),
  client: (origin) => new OpenAiCompatibleClient({ provider: 'openrouter', baseURL: `${origin}/api/v1`, apiKey: 'sk-or-contract' }),
  cases: {
    'text-with-cost': { reply: { content: 'Paris.', finishReason: 'stop', costUsd: 0.0000033 } },
    // nothing was generated: transient, and the next attempt answers (it was a non-retryable `malformed` reply)
    'error-in-200': { transient: 'retryable', message: /HTTP 200 with an error instead of a reply: Provider returned error \(code 502\)/ },
    // the reply stopped part-way and may be billed: an error reply with the provider's message, not retried
    'choice-error': { permanent: 'generation_failed', message: /Upstream stream ended unexpectedly \(code 502\)/ },
    'error-402': { permanent: 'quota', message: /HTTP 402: .*Insufficient credits.*no further calls/s },
    'error-moderation': { permanent: 'blocked', message: /flagged for "violence".*\(violence\)/ },
  },
});
