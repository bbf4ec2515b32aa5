/**
 * The frame every adapter's embed() shares: a batch within 1…maxBatch (refused before any
 * request), the per-call deadline and cancellation (deadline.ts), and the latency measured
 * from the start of the call.
 */
import { withDeadline } from '../deadline';
import { ProviderError } from '../types';
import type { EmbeddingClient, EmbeddingRequest, EmbeddingResponse } from './types';

export function boundedEmbed(
  client: Pick<EmbeddingClient, 'provider' | 'maxBatch'>,
  req: EmbeddingRequest,
  defaultTimeoutMs: number,
  call: (ctx: { signal: AbortSignal; timeoutMs: number; latencyMs: () => number }) => Promise<EmbeddingResponse>,
): Promise<EmbeddingResponse> {
  if (req.inputs.length === 0 || req.inputs.length > client.maxBatch) {
    return Promise.reject(new ProviderError({ kind: 'bad_request', provider: client.provider, message: `${client.provider}: ${req.inputs.length} inputs in one request (1…${client.maxBatch})` }));
  }
  const timeoutMs = req.timeoutMs ?? defaultTimeoutMs;
  const started = performance.now();
  return withDeadline({ provider: client.provider, timeoutMs, signal: req.signal }, (signal) => call({ signal, timeoutMs, latencyMs: () => performance.now() - started }));
}
