/**
 * The webhook endpoint as a route handler (the app's route file only wires it), so tests
 * serve exactly this handler over HTTP and let the fake GitHub deliver to it. The body is
 * read here, under its signature and a size cap (signed-body.ts), before anything else.
 */
import { z } from 'zod';
import { NotConfiguredError } from '../../http/errors';
import { route, type RouteHandler } from '../../http/route';
import { receiveWebhook, type WebhookDeps } from './receive-webhook';
import { MAX_WEBHOOK_BYTES, readSignedBody } from './signed-body';

export function webhookHandler(deps: () => WebhookDeps, opts: { maxBodyBytes?: number } = {}): RouteHandler {
  return route({ response: z.object({ ok: z.literal(true), outcome: z.string() }) }, async ({ request }) => {
    const d = deps();
    if (!d.secret) throw new NotConfiguredError('Webhooks are disabled: set GITHUB_WEBHOOK_SECRET to the secret configured on the GitHub webhook.');
    const body = await readSignedBody(request, d.secret, opts.maxBodyBytes ?? MAX_WEBHOOK_BYTES);
    const h = request.headers;
    const { outcome } = await receiveWebhook(d, { event: h.get('x-github-event'), deliveryId: h.get('x-github-delivery'), body });
    return { ok: true as const, outcome };
  });
}
