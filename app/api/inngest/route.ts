/**
 * The Inngest endpoint: every Assay function, served for Inngest Cloud or a self-hosted
 * server. Without INNGEST_SIGNING_KEY (or INNGEST_DEV=1) Inngest's handler answers 500 by
 * design; locally the same job code runs in-process instead.
 */
import { serve } from 'inngest/next';
import { inngest } from '@/lib/server/jobs/client';
import { inngestFunctions } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

export const { GET, POST, PUT } = serve({ client: inngest, functions: inngestFunctions() });
