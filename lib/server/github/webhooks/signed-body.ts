/**
 * A webhook body read under its signature: the X-Hub-Signature-256 header must be present and
 * well-formed before a byte is read, the body may not exceed MAX_WEBHOOK_BYTES (413 as soon
 * as it does, without reading the rest), and the HMAC-SHA256 is computed chunk by chunk as the
 * bytes arrive. So an unsigned or oversized delivery costs at most the cap, never GitHub's 25 MB.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError, UnauthorizedError } from '../../http/errors';

/** Assay reads a handful of fields; pushes with many commits are the largest events it gets. */
export const MAX_WEBHOOK_BYTES = 1024 * 1024;

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

function tooLarge(max: number): AppError {
  return new AppError('payload_too_large', 413, `The webhook body is larger than ${max} bytes; Assay accepts push, pull_request and issue_comment events up to that size (the scheduled sync catches a push it refused).`);
}

export function unsignedError(): UnauthorizedError {
  return new UnauthorizedError('The webhook signature (X-Hub-Signature-256) is missing or wrong; check that GitHub and GITHUB_WEBHOOK_SECRET share the same secret.');
}

export async function readSignedBody(request: Request, secret: string, max = MAX_WEBHOOK_BYTES): Promise<string> {
  const expected = SIGNATURE.exec(request.headers.get('x-hub-signature-256') ?? '')?.[1];
  if (!expected) throw unsignedError();
  if (Number(request.headers.get('content-length') ?? 0) > max) throw tooLarge(max);
  const hmac = createHmac('sha256', secret);
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > max) {
        await reader.cancel().catch(() => {});
        throw tooLarge(max);
      }
      hmac.update(value);
      chunks.push(value);
    }
  }
  const actual = hmac.digest();
  if (!timingSafeEqual(actual, Buffer.from(expected, 'hex'))) throw unsignedError();
  return Buffer.concat(chunks).toString('utf8');
}
