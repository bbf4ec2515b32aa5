/**
 * The Inngest endpoint: every Assay function, served for Inngest Cloud or a self-hosted
 * server. Without INNGEST_SIGNING_KEY (or INNGEST_DEV=1) Inngest's handler answers 500 by
 * design; locally the same job code runs in-process instead. Start-up refuses half an Inngest
 * configuration (lib/server/env-inngest.ts); docs/runs.md ("Running on Inngest") lists it all.
 *
 * Each request from Inngest runs one step, and a run's step calls providers for minutes. Two
 * settings keep such a request from being cut while it works (a cut request is retried by
 * Inngest while the first invocation still runs, so the step would run twice at once):
 *  - `streaming: true`: the SDK answers at once and streams the step's result when it ends,
 *    keeping the connection alive meanwhile; the Next.js handler supports it (SDK 4.24.0,
 *    node_modules/inngest/types.d.ts `RegisterOptions.streaming: true | false`;
 *    https://www.inngest.com/docs/reference/typescript/v4/serve/streaming).
 *  - `maxDuration` (seconds): how long the platform lets this route run. 300 is the longest
 *    every Vercel plan allows (Pro and Enterprise allow up to 800:
 *    https://vercel.com/docs/functions/limitations); `next start` on a server of your own
 *    ignores it. Inngest itself stops a step after 2 hours at most
 *    (https://www.inngest.com/docs/usage-limits/inngest, "Timeout").
 */
import { serve } from 'inngest/next';
import { inngest } from '@/lib/server/jobs/client';
import { inngestFunctions } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';
// A literal: Next.js reads route segment options statically.
export const maxDuration = 300;

export const { GET, POST, PUT } = serve({ client: inngest, functions: inngestFunctions(), streaming: true });
