/**
 * `$call` / `factcheck`: the ExternalCallPort over the services a maintainer configured
 * (ASSAY_EXTERNAL_SERVICES). A blueprint names a service; it can never supply a URL, so it
 * cannot make the server fetch an arbitrary address or send a secret anywhere.
 *
 * Errors end up in verdicts that anyone can read, so they name only the service the blueprint
 * asked for: never the other configured services, a URL, a host, or the body a service sent.
 * The full cause goes to the server log (`log`), for the maintainer.
 */
import type { ExternalCallPort } from '@/lib/core';

export class ExternalServiceError extends Error {
  override name = 'ExternalServiceError';
}

export function createExternalCallPort(
  services: Record<string, string>,
  opts: { timeoutMs?: number; fetch?: typeof fetch; log?: (line: string, cause: unknown) => void } = {},
): ExternalCallPort {
  const doFetch = opts.fetch ?? fetch;
  const log = opts.log ?? ((line, cause) => console.error(line, cause));
  return {
    async call(service, payload) {
      const url = Object.hasOwn(services, service) ? services[service] : undefined;
      if (!url) throw new ExternalServiceError(`external service "${service}" is not configured; a maintainer adds it to ASSAY_EXTERNAL_SERVICES`);
      let res: Response;
      try {
        res = await doFetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(payload),
          redirect: 'error',
          signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
        });
      } catch (e) {
        log(`assay: external service "${service}" (${url}) could not be reached:`, e);
        throw new ExternalServiceError(`external service "${service}" could not be reached (the server log has the details)`);
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        throw new ExternalServiceError(`external service "${service}" answered HTTP ${res.status}`);
      }
      try {
        return (await res.json()) as unknown;
      } catch (e) {
        log(`assay: external service "${service}" (${url}) answered something that is not JSON:`, e);
        throw new ExternalServiceError(`external service "${service}" answered something that is not JSON`);
      }
    },
  };
}
