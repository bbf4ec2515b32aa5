import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../providers';
import { executionOf, QuotaStops } from './quota-stop';

describe('QuotaStops', () => {
  const quota = new ProviderError({ kind: 'quota', provider: 'openai', status: 429, message: 'openai: HTTP 429: You exceeded your current quota' });

  it('stops a run’s calls to an account once it answered out of quota, saying why', () => {
    const stops = new QuotaStops();
    expect(stops.stopped('run-1', 'openai')).toBeNull();
    stops.observe('run-1', 'openai', quota);
    const e = stops.stopped('run-1', 'openai');
    expect(e).toMatchObject({ kind: 'quota', provider: 'openai', status: 429, retryable: false });
    expect(e?.message).toMatch(/^openai: not called: earlier in this run .*You exceeded your current quota/);
  });

  it('lasts one execution: a resumed run (a new lease holder) calls the account again', () => {
    const stops = new QuotaStops();
    stops.observe(executionOf({ runId: 'run-1', leaseHolder: 'host:1:aaaa' }), 'openai', quota);
    expect(stops.stopped(executionOf({ runId: 'run-1', leaseHolder: 'host:1:aaaa' }), 'openai')).not.toBeNull();
    expect(stops.stopped(executionOf({ runId: 'run-1', leaseHolder: 'host:1:bbbb' }), 'openai')).toBeNull();
    expect(executionOf({ runId: 'run-1' })).toBe('run-1');
  });

  it('leaves other accounts, other runs and other kinds of error alone', () => {
    const stops = new QuotaStops();
    stops.observe('run-1', 'openai', quota);
    stops.observe('run-1', 'anthropic', new ProviderError({ kind: 'rate_limited', provider: 'anthropic', message: 'slow down' }));
    stops.observe('run-1', 'google', new Error('not a provider error'));
    expect(stops.stopped('run-1', 'anthropic')).toBeNull();
    expect(stops.stopped('run-1', 'google')).toBeNull();
    expect(stops.stopped('run-2', 'openai')).toBeNull();
  });
});
