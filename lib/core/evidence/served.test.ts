import { describe, expect, it } from 'vitest';
import { MAX_SERVED_VALUE, NOTHING_SERVED, servedFrom, servedOrNothing } from './served';

describe('what the provider served', () => {
  it('keeps the model, fingerprint, response id and only allow-listed headers, whatever their case', () => {
    const headers = new Headers({ 'OpenAI-Model': 'gpt-4o-2024-08-06', 'x-request-id': 'req_1', 'set-cookie': 'a=b', authorization: 'Bearer sk-x', 'openai-organization': 'org-1' });
    expect(servedFrom({ model: 'gpt-4o-2024-08-06', fingerprint: 'fp_abc', responseId: 'chatcmpl-1', headers })).toEqual({
      model: 'gpt-4o-2024-08-06',
      fingerprint: 'fp_abc',
      meta: { headers: { 'openai-model': 'gpt-4o-2024-08-06', 'x-request-id': 'req_1' }, responseId: 'chatcmpl-1' },
    });
    expect(servedFrom({ headers: { 'Request-Id': 'r', Cookie: 'c' } }).meta.headers).toEqual({ 'request-id': 'r' });
  });

  it('turns what is not a non-empty string into null and cuts long values', () => {
    expect(servedFrom({ model: 42, fingerprint: '', responseId: null })).toEqual(NOTHING_SERVED);
    expect(servedFrom({ model: 'm'.repeat(1000) }).model).toHaveLength(MAX_SERVED_VALUE);
  });

  it('reads a cached response without a served record as nothing known', () => {
    expect(servedOrNothing(undefined)).toEqual(NOTHING_SERVED);
    expect(servedOrNothing({ model: 'm', fingerprint: null, meta: { headers: { 'x-request-id': 'r' }, responseId: null } })).toMatchObject({ model: 'm' });
    expect(servedOrNothing({ model: 'm', fingerprint: null, meta: { headers: { cookie: 'x' } } })).toEqual(NOTHING_SERVED);
  });
});
