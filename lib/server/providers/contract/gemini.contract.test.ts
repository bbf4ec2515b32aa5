/**
 * Gemini's documented GenerateContentResponse bodies and errors through the Gemini adapter: the
 * reading function (fromGeminiResponse), the classifier (classifyGeminiError) and the real client
 * over HTTP. Each example's source is in its fixture file.
 */
import { ApiError, type GenerateContentResponse } from '@google/genai';
import { classifyGeminiError, fromGeminiResponse, GoogleClient } from '../google';
import { runContract } from './contract.testkit';

runContract({
  provider: 'gemini',
  model: 'gemini-2.0-flash',
  then: 'text',
  read: (example) => {
    if (example.status < 300) return fromGeminiResponse(example.body as GenerateContentResponse, { provider: 'google', model: 'gemini-2.0-flash', latencyMs: 1 });
    // @google/genai throws ApiError with the error body as JSON text for a non-2xx (src/_api_client.ts throwErrorIfNotOK).
    throw classifyGeminiError(new ApiError({ message: JSON.stringify(example.body), status: example.status }), 'google', []);
  },
  client: (origin) => new GoogleClient({ apiKey: 'gemini-contract-key', baseURL: origin }),
  cases: {
    text: { reply: { content: 'The sky is blue because of a phenomenon called **Rayleigh scattering**.', finishReason: 'STOP' } },
    'max-tokens': { reply: { finishReason: 'MAX_TOKENS', content: "The sky is blue because of something called **Rayleigh Scattering**.\n\nHere's a breakdown of why it happens:\n" } },
    // stopped for safety with no text: an error reply naming the reason and the category that blocked it
    safety: { permanent: 'blocked', message: /finishReason SAFETY .*HARM_CATEGORY_DANGEROUS_CONTENT HIGH/ },
    'prohibited-content': { permanent: 'blocked', message: /finishReason PROHIBITED_CONTENT/ },
    'prompt-blocked': { permanent: 'blocked', message: /the prompt was blocked \(SAFETY\).*HARM_CATEGORY_HATE_SPEECH/ },
    'error-not-found': { permanent: 'bad_request', message: /HTTP 404: .*is not found for API version v1beta/ },
    'error-internal': { transient: 'retryable', message: /HTTP 500/ },
  },
});
