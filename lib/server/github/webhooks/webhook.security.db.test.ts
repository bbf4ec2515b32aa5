/**
 * Issue 11, Low: unsigned webhook bodies were buffered up to 25 MB before the signature check,
 * and a signed delivery replayed under a new X-GitHub-Delivery id (the header is not signed)
 * was processed again. The handler is the app's; bodies are streamed to it as Node streams them.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import type { GitHubJobs } from '../jobs';
import type { WebhookDeps } from './receive-webhook';
import { MAX_WEBHOOK_BYTES } from './signed-body';
import { webhookHandler } from './webhook-route';

const SECRET = 'webhook-secret-for-security-tests';
let t: TestDatabase;
const syncs: string[] = [];
const jobs: GitHubJobs = {
  requestSync: async (_why, sha) => void syncs.push(sha ?? ''),
  pullRequestChanged: async () => {},
  pullRequestApproved: async () => {},
};

beforeAll(async () => {
  t = await freshDatabase();
});
afterAll(async () => t?.close());

const deps = (): WebhookDeps => ({ db: t.db, secret: SECRET, source: { owner: 'o', repo: 'r', branch: 'main' }, approvalLabel: 'assay:run', command: '/assay run', jobs });
const handler = webhookHandler(deps);
const sign = (body: string | Buffer) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;

/** A body that arrives in 64 KiB chunks, counting how many bytes the handler pulled. */
function streamed(total: number): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  let sent = 0;
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (sent >= total) return c.close();
      sent += chunk.byteLength;
      c.enqueue(chunk);
    },
  }, { highWaterMark: 0 });
  return { body, pulled: () => sent };
}

const post = (body: BodyInit, headers: Record<string, string>) =>
  handler(new Request('http://assay.test/api/webhooks/github', { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': randomUUID(), ...headers }, duplex: 'half' } as RequestInit));

describe(`webhook bodies are capped and read under their signature (${process.env.ASSAY_TEST_DB})`, () => {
  it('refuses a delivery without a well-formed signature before reading a byte', async () => {
    const s = streamed(25 * 1024 * 1024);
    const res = await post(s.body, {});
    expect(res.status).toBe(401);
    expect(s.pulled()).toBe(0);
    const garbage = streamed(25 * 1024 * 1024);
    expect((await post(garbage.body, { 'x-hub-signature-256': 'sha256=zz' })).status).toBe(401);
    expect(garbage.pulled()).toBe(0);
  });

  it('answers 413 to a 25 MB body as soon as it passes the cap, without reading the rest', async () => {
    const s = streamed(25 * 1024 * 1024);
    const res = await post(s.body, { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` });
    expect(res.status).toBe(413);
    expect((await res.json()).error.message).toMatch(/larger than 1048576 bytes/);
    expect(s.pulled()).toBeLessThanOrEqual(MAX_WEBHOOK_BYTES + 64 * 1024);
    // a declared length over the cap is refused before reading, too
    const declared = streamed(2 * MAX_WEBHOOK_BYTES);
    expect((await post(declared.body, { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}`, 'content-length': String(2 * MAX_WEBHOOK_BYTES) })).status).toBe(413);
    expect(declared.pulled()).toBe(0);
    expect(await t.db.webhookDelivery.count()).toBe(0);
  });

  it('accepts a signed body up to the cap, and refuses a wrong signature over it', async () => {
    const body = JSON.stringify({ ref: 'refs/heads/main', after: 'a'.repeat(40), repository: { full_name: 'o/r' }, padding: 'x'.repeat(MAX_WEBHOOK_BYTES - 200) });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_WEBHOOK_BYTES);
    expect((await post(body, { 'x-hub-signature-256': sign(`${body} `) })).status).toBe(401);
    const ok = await post(body, { 'x-hub-signature-256': sign(body) });
    expect(ok.status).toBe(200);
    expect((await ok.json()).outcome).toBe('sync requested at aaaaaaa');
  });
});

describe(`a replayed webhook is processed once (${process.env.ASSAY_TEST_DB})`, () => {
  it('treats the same signed payload under a new delivery id as a duplicate', async () => {
    const body = JSON.stringify({ ref: 'refs/heads/main', after: 'b'.repeat(40), repository: { full_name: 'o/r' } });
    const before = syncs.length;
    const first = await post(body, { 'x-hub-signature-256': sign(body), 'x-github-delivery': 'original-id' });
    expect((await first.json()).outcome).toBe('sync requested at bbbbbbb');
    for (let i = 0; i < 5; i++) {
      const replay = await post(body, { 'x-hub-signature-256': sign(body), 'x-github-delivery': `replayed-${i}` });
      expect((await replay.json()).outcome).toBe('duplicate delivery (sync requested at bbbbbbb)');
    }
    expect(syncs.length - before).toBe(1);
    // replays racing each other: one is processed
    const raced = JSON.stringify({ ref: 'refs/heads/main', after: 'd'.repeat(40), repository: { full_name: 'o/r' } });
    const outcomes = await Promise.all(Array.from({ length: 6 }, (_, i) => post(raced, { 'x-hub-signature-256': sign(raced), 'x-github-delivery': `race-${i}` }).then((r) => r.json())));
    expect(outcomes.filter((o) => o.outcome === 'sync requested at ddddddd')).toHaveLength(1);
    expect(syncs.filter((s) => s === 'd'.repeat(40))).toHaveLength(1);
    // another event with another payload is still processed
    const next = JSON.stringify({ ref: 'refs/heads/main', after: 'c'.repeat(40), repository: { full_name: 'o/r' } });
    expect((await (await post(next, { 'x-hub-signature-256': sign(next) })).json()).outcome).toBe('sync requested at ccccccc');
  });
});
