/**
 * The re-run cron's chunks: every blueprint lands in exactly one chunk, in plan order, and the
 * chunks never outnumber MAX_REQUEST_STEPS, so the cron's steps stay far under Inngest's 1,000
 * per function run (https://www.inngest.com/docs/usage-limits/inngest) at any repository size.
 */
import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_STEPS, MIN_CHUNK, rerunChunks } from './schedule-reruns-cron';

describe('rerunChunks', () => {
  it.each([0, 1, 19, 20, 21, 999, 1000, 1001, 2500, 100_000])('cuts a plan of %i blueprints into at most MAX_REQUEST_STEPS chunks, each blueprint once', (n) => {
    const plan = Array.from({ length: n }, (_, i) => i);
    const chunks = rerunChunks(plan);
    expect(chunks.length).toBeLessThanOrEqual(MAX_REQUEST_STEPS);
    expect(chunks.flat()).toEqual(plan);
    // no chunk smaller than MIN_CHUNK but the last: small plans are one or few steps
    for (const c of chunks.slice(0, -1)) expect(c.length).toBeGreaterThanOrEqual(MIN_CHUNK);
  });

  it('keeps 1,000 blueprints to 50 request steps (51 with the plan)', () => {
    expect(rerunChunks(Array.from({ length: 1000 }, (_, i) => i))).toHaveLength(50);
  });
});
