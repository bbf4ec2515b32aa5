/**
 * OpenAI's documented chat-completion bodies and errors through the OpenAI adapter: the
 * reading function (fromOpenAiCompletion), the classifier (classifyOpenAiError) and the real
 * client over HTTP. Each example's source is in its fixture file.
 */
import { OpenAiCompatibleClient } from '../openai-compatible';
import { readOpenAiExample, runContract } from './contract.testkit';

runContract({
  provider: 'openai',
  model: 'gpt-4o-mini',
  then: 'text',
  read: (example) => readOpenAiExample('openai', 'gpt-4o-mini', example),
  client: (origin) => new OpenAiCompatibleClient({ provider: 'openai', baseURL: `${origin}/v1`, apiKey: 'sk-contract' }),
  cases: {
    text: { reply: { content: 'Hello! How can I assist you today?', finishReason: 'stop', toolCalls: [], usage: { promptTokens: 19, completionTokens: 10 } } },
    'tool-calls': { reply: { content: '', finishReason: 'tool_calls', toolCalls: [{ id: 'call_abc123', name: 'get_current_weather', arguments: { location: 'Boston, MA' } }] } },
    logprobs: {
      reply: {
        content: 'Hello!',
        logprobs: [
          { token: 'Hello', logprob: -0.31725305, top: [{ token: 'Hello', logprob: -0.31725305 }, { token: 'Hi', logprob: -1.3190403 }] },
          { token: '!', logprob: -0.02380986, top: [{ token: '!', logprob: -0.02380986 }, { token: ' there', logprob: -3.787621 }] },
        ],
      },
    },
    // the refusal's text is the stored content, so judges and behaviour criteria read it
    refusal: { reply: { content: "I'm sorry, I cannot assist with that request.", refusal: 'message.refusal', finishReason: 'stop' } },
    // filtered with nothing left: an error reply with the provider's reason, not an empty reply graded as an answer
    'content-filter': { permanent: 'blocked', message: /content_filter/ },
    // kept, with its finish reason: the pages say "cut off at the token limit"
    length: { reply: { content: 'The sky is blue because of Rayleigh', finishReason: 'length' } },
    'error-insufficient-quota': { permanent: 'quota', message: /exceeded your current quota.*no further calls/s },
    'error-rate-limit': { transient: 'rate_limited', message: /Rate limit reached/ },
    'error-model-not-found': { permanent: 'bad_request', message: /HTTP 404: .*does not exist/ },
    'error-server': { transient: 'retryable', message: /HTTP 500/ },
  },
});
