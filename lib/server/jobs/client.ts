/**
 * The Inngest client. In production it talks to Inngest Cloud or a self-hosted Inngest
 * server (INNGEST_EVENT_KEY / INNGEST_SIGNING_KEY); with INNGEST_DEV=1 to a dev server.
 * Without either, Assay does not send events at all: the in-process runner executes the
 * same step code (see lib/server/jobs/local-runner.ts).
 */
import { Inngest } from 'inngest';

export const inngest = new Inngest({ id: 'assay' });
