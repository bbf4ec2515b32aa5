/**
 * The webhook endpoint as a route handler (the app's route file only wires it), so tests
 * serve exactly this handler over HTTP and let the fake GitHub deliver to it.
 */
import { z } from 'zod';
import { route, type RouteHandler } from '../../http/route';
import { receiveWebhook, type WebhookDeps } from './receive-webhook';

export function webhookHandler(deps: () => WebhookDeps): RouteHandler {
  // GitHub caps payloads at 25 MB; Assay's events are far smaller, pushes with many commits the largest
  return route({ rawBody: true, maxBodyBytes: 25 * 1024 * 1024, response: z.object({ ok: z.literal(true), outcome: z.string() }) }, async ({ rawBody, request }) => {
    const h = request.headers;
    const { outcome } = await receiveWebhook(deps(), {
      event: h.get('x-github-event'),
      deliveryId: h.get('x-github-delivery'),
      signature: h.get('x-hub-signature-256'),
      body: rawBody,
    });
    return { ok: true as const, outcome };
  });
}
