/**
 * A GitHub webhook delivery whose signature (X-Hub-Signature-256, HMAC-SHA256 with
 * GITHUB_WEBHOOK_SECRET) was checked while its body was read (signed-body.ts): record the
 * delivery id and the payload's identity (a hash of the event and the signed bytes; the
 * delivery id header is not signed, so a replay may carry a new one), so a redelivery or a
 * replay is processed once, then turn the event into jobs: a push to the branch → sync; a pull request
 * opened/pushed → validation; the approval label or a `/assay run` comment → approval (whose
 * job checks the actor's permission). An unsigned or mis-signed delivery changes nothing.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { BadRequestError } from '../../http/errors';
import type { GitHubSource } from '../config';
import type { GitHubJobs } from '../jobs';
import { IssueCommentPayload, PullRequestPayload, PushPayload } from './payloads';

export interface WebhookDeps {
  db: Db;
  /** GITHUB_WEBHOOK_SECRET; without it every delivery is refused (webhook-route.ts). */
  secret: string | undefined;
  /** The configured repository; events of any other repository are ignored. */
  source: GitHubSource | null;
  approvalLabel: string;
  command: string;
  jobs: GitHubJobs;
}

export interface WebhookDelivery {
  event: string | null;
  deliveryId: string | null;
  /** The body, already verified against its signature. */
  body: string;
}

export interface WebhookOutcome {
  outcome: string;
}

const VALIDATE_ON = new Set(['opened', 'reopened', 'synchronize']);

export async function receiveWebhook(deps: WebhookDeps, d: WebhookDelivery): Promise<WebhookOutcome> {
  if (!d.event || !d.deliveryId) throw new BadRequestError('A webhook needs the X-GitHub-Event and X-GitHub-Delivery headers.');
  let payload: unknown;
  try {
    payload = JSON.parse(d.body);
  } catch {
    throw new BadRequestError('The webhook body is not JSON; set the webhook content type to application/json.');
  }

  const { db } = deps;
  const payloadSha256 = createHash('sha256').update(d.event).update('\n').update(d.body).digest('hex');
  // skipDuplicates skips on either key: the same delivery id, or the same payload under another id
  await db.webhookDelivery.createMany({ data: [{ id: d.deliveryId, event: d.event, payloadSha256 }], skipDuplicates: true });
  const seen = await db.webhookDelivery.findFirst({ where: { OR: [{ id: d.deliveryId }, { payloadSha256 }] }, orderBy: { processedAt: { sort: 'asc', nulls: 'last' } } });
  if (seen?.processedAt) return { outcome: `duplicate delivery (${seen.outcome ?? 'processed'})` };
  const rowId = seen?.id ?? d.deliveryId;
  // claim it: of concurrent copies (a replay racing the original), exactly one goes on
  const claimed = await db.webhookDelivery.updateMany({ where: { id: rowId, processedAt: null }, data: { processedAt: new Date(), outcome: 'processing' } });
  if (claimed.count === 0) return { outcome: 'duplicate delivery (processing)' };

  let outcome: string;
  try {
    outcome = await dispatch(deps, d.event, payload);
  } catch (e) {
    // not processed after all: a redelivery may try again
    await db.webhookDelivery.update({ where: { id: rowId }, data: { processedAt: null, outcome: null } });
    throw e;
  }
  await db.webhookDelivery.update({ where: { id: rowId }, data: { processedAt: new Date(), outcome } });
  return { outcome };
}

function parse<T>(schema: z.ZodType<T>, payload: unknown, event: string): T {
  const r = schema.safeParse(payload);
  if (!r.success) throw new BadRequestError(`The ${event} payload is malformed: ${r.error.issues[0]?.path.join('.')}: ${r.error.issues[0]?.message}`);
  return r.data;
}

async function dispatch(deps: WebhookDeps, event: string, payload: unknown): Promise<string> {
  const src = deps.source;
  if (event === 'ping') return 'pong';
  if (!src) return 'ignored: no GitHub repository is configured (GITHUB_REPOSITORY)';
  const ours = (fullName: string) => fullName.toLowerCase() === `${src.owner}/${src.repo}`.toLowerCase();

  if (event === 'push') {
    const p = parse(PushPayload, payload, event);
    if (!ours(p.repository.full_name)) return `ignored: push to ${p.repository.full_name}`;
    if (p.ref !== `refs/heads/${src.branch}`) return `ignored: push to ${p.ref}`;
    if (/^0+$/.test(p.after)) return 'ignored: branch deleted';
    await deps.jobs.requestSync('webhook', p.after);
    return `sync requested at ${p.after.slice(0, 7)}`;
  }

  if (event === 'pull_request') {
    const p = parse(PullRequestPayload, payload, event);
    if (!ours(p.repository.full_name)) return `ignored: pull request on ${p.repository.full_name}`;
    if (p.pull_request.base.ref !== src.branch) return `ignored: pull request into ${p.pull_request.base.ref}`;
    if (VALIDATE_ON.has(p.action)) {
      await deps.jobs.pullRequestChanged({ number: p.number, headSha: p.pull_request.head.sha, author: p.pull_request.user.login, title: p.pull_request.title });
      return `validation requested for #${p.number}`;
    }
    if (p.action === 'labeled' && p.label?.name === deps.approvalLabel) {
      await deps.jobs.pullRequestApproved({ number: p.number, approvedBy: p.sender.login, via: 'label', headSha: p.pull_request.head.sha });
      return `approval by label from ${p.sender.login} requested for #${p.number}`;
    }
    return `ignored: pull_request ${p.action}`;
  }

  if (event === 'issue_comment') {
    const p = parse(IssueCommentPayload, payload, event);
    if (!ours(p.repository.full_name)) return `ignored: comment on ${p.repository.full_name}`;
    if (p.action !== 'created' || !p.issue.pull_request) return 'ignored: not a new pull-request comment';
    // the command must open a line of its own: quoting it in prose does not approve anything
    const commanded = p.comment.body.split(/\r?\n/).some((line) => line.trim() === deps.command || line.trim().startsWith(`${deps.command} `));
    if (!commanded) return 'ignored: no command';
    await deps.jobs.pullRequestApproved({ number: p.issue.number, approvedBy: p.comment.user.login, via: 'comment' });
    return `approval by comment from ${p.comment.user.login} requested for #${p.issue.number}`;
  }
  return `ignored: ${event}`;
}
