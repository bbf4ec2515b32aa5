/**
 * `$call` / `factcheck`: the ExternalCallPort over the services a maintainer configured
 * (ASSAY_EXTERNAL_SERVICES). A blueprint names a service; it can never supply a URL, so it
 * cannot make the server fetch an arbitrary address or send a secret anywhere.
 */
import type { ExternalCallPort } from '@/lib/core';

export class ExternalServiceError extends Error {
  override name = 'ExternalServiceError';
}

export function createExternalCallPort(services: Record<string, string>, opts: { timeoutMs?: number; fetch?: typeof fetch } = {}): ExternalCallPort {
  const doFetch = opts.fetch ?? fetch;
  return {
    async call(service, payload) {
      const url = Object.hasOwn(services, service) ? services[service] : undefined;
      if (!url) {
        const known = Object.keys(services);
        throw new ExternalServiceError(
          `external service "${service}" is not configured${known.length ? ` (configured: ${known.join(', ')})` : ''}; a maintainer adds it to ASSAY_EXTERNAL_SERVICES`,
        );
      }
      const res = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
        redirect: 'error',
        signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
      });
      if (!res.ok) throw new ExternalServiceError(`external service "${service}" answered HTTP ${res.status}`);
      return (await res.json()) as unknown;
    },
  };
}
