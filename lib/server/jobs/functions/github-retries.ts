/**
 * How often Inngest retries a GitHub job (sync, pull-request validation, approval) before it
 * gives up: more than the SDK's default of 3 (`retries` in inngest's InngestFunction options), since
 * GitHub does not redeliver a failed webhook by itself and a given-up validation leaves its
 * check unfinished until the next push. Inngest spaces the retries out with a growing backoff.
 */
export const GITHUB_JOB_RETRIES = 10;
