/**
 * The Inngest part of the configuration (env.ts spreads these fields into its schema and runs
 * `checkInngestConfig` over the whole): which variables Assay accepts for Inngest, and the
 * combinations it refuses at start, each with a message naming the variable and the fix.
 * docs/runs.md ("Running on Inngest") is the reader's copy; a test holds the two together.
 *
 * The variables are the SDK's own (inngest 4.24.0, node_modules/inngest/helpers/consts.js
 * `envKeys`; https://www.inngest.com/docs/sdk/environment-variables): the SDK reads them from
 * the process environment itself, Assay only validates them.
 *  - INNGEST_EVENT_KEY: sends events (https://www.inngest.com/docs/events/creating-an-event-key).
 *  - INNGEST_SIGNING_KEY: signs and checks every request between Inngest and the serve route
 *    (https://www.inngest.com/docs/platform/signing-keys).
 *  - INNGEST_SIGNING_KEY_FALLBACK: the previous signing key during a rotation, tried when the
 *    current one is refused (https://www.inngest.com/docs/platform/manage/rotating-keys).
 *  - INNGEST_BASE_URL: a self-hosted Inngest server (`inngest start`), for both its event API
 *    and its REST API (the SDK's `apiBaseUrl`/`eventBaseUrl`;
 *    https://www.inngest.com/docs/self-hosting).
 *  - INNGEST_DEV: `1` talks to the local dev server without signing keys (a URL: the dev
 *    server at that address; `0`: not dev mode), as the SDK's `mode` reads it.
 */
import { z } from 'zod';

const optional = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

function isUrl(v: string): boolean {
  try {
    return Boolean(new URL(v));
  } catch {
    return false;
  }
}

/** Whether INNGEST_DEV puts the SDK in dev mode: `1`/`true` or a URL; `0`/`false` not (the SDK's `mode`). */
export function inngestDevMode(value: string | undefined): boolean {
  if (value === undefined) return false;
  const v = value.trim().toLowerCase();
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  return isUrl(value);
}

export const INNGEST_ENV_FIELDS = {
  INNGEST_EVENT_KEY: optional,
  INNGEST_SIGNING_KEY: optional,
  INNGEST_SIGNING_KEY_FALLBACK: optional,
  INNGEST_BASE_URL: optional.pipe(z.url('must be the URL of your Inngest server, e.g. http://inngest.internal:8288').optional()),
  INNGEST_DEV: optional.refine((v) => v === undefined || ['1', '0', 'true', 'false'].includes(v.trim().toLowerCase()) || isUrl(v), 'must be 1 (the dev server at http://localhost:8288), 0, or the dev server’s URL'),
  /** Read only to refuse INNGEST_DEV in production (Next.js sets it to `production` for `next start` and builds). */
  NODE_ENV: optional,
};

/** The variables the Inngest checks accept and name (docs/runs.md's configuration table lists the same). */
export const INNGEST_VARIABLES = ['INNGEST_EVENT_KEY', 'INNGEST_SIGNING_KEY', 'INNGEST_SIGNING_KEY_FALLBACK', 'INNGEST_BASE_URL', 'INNGEST_DEV'] as const;

type InngestEnv = { [K in keyof typeof INNGEST_ENV_FIELDS]?: z.output<(typeof INNGEST_ENV_FIELDS)[K]> };

/** The combinations refused at start, as zod issues on the variable to fix. */
export function checkInngestConfig(env: InngestEnv, ctx: z.RefinementCtx<unknown>): void {
  const dev = inngestDevMode(env.INNGEST_DEV);
  if (dev && env.NODE_ENV === 'production') {
    ctx.addIssue({
      code: 'custom',
      path: ['INNGEST_DEV'],
      message: 'must not be set with NODE_ENV=production: dev mode turns off the signature check of the /api/inngest route, so anyone could run its functions. Unset it and set INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY',
    });
  }
  if (dev) return; // the dev server needs no keys
  if (env.INNGEST_EVENT_KEY && !env.INNGEST_SIGNING_KEY) {
    ctx.addIssue({
      code: 'custom',
      path: ['INNGEST_SIGNING_KEY'],
      message: 'is required with INNGEST_EVENT_KEY: without it runs are sent to Inngest but the /api/inngest route refuses every request from it, so no run ever starts. Set it from your Inngest environment (or your server’s --signing-key), or unset INNGEST_EVENT_KEY to run jobs in this process',
    });
  }
  if (env.INNGEST_SIGNING_KEY && !env.INNGEST_EVENT_KEY) {
    ctx.addIssue({
      code: 'custom',
      path: ['INNGEST_EVENT_KEY'],
      message: 'is required with INNGEST_SIGNING_KEY: without it Assay runs jobs in this process while Inngest serves the same functions, so work would be done twice. Set it, or unset INNGEST_SIGNING_KEY',
    });
  }
  if (env.INNGEST_SIGNING_KEY_FALLBACK && !env.INNGEST_SIGNING_KEY) {
    ctx.addIssue({ code: 'custom', path: ['INNGEST_SIGNING_KEY_FALLBACK'], message: 'is the previous key of a rotation and needs INNGEST_SIGNING_KEY, the current one' });
  }
  if (env.INNGEST_BASE_URL && !env.INNGEST_EVENT_KEY) {
    ctx.addIssue({ code: 'custom', path: ['INNGEST_BASE_URL'], message: 'names a self-hosted Inngest server, which needs INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY (the keys the server was started with)' });
  }
}
