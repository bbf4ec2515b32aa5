import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from './csp';

const scriptSrc = (csp: string) => csp.split('; ').find((d) => d.startsWith('script-src'));

describe('the Content-Security-Policy', () => {
  it('lets only a page that asks compile WebAssembly, and never allows eval in production', () => {
    expect(scriptSrc(contentSecurityPolicy('n1', 'production'))).toBe("script-src 'self' 'nonce-n1' 'strict-dynamic'");
    expect(scriptSrc(contentSecurityPolicy('n1', 'production', { wasm: true }))).toBe("script-src 'self' 'nonce-n1' 'strict-dynamic' 'wasm-unsafe-eval'");
    expect(contentSecurityPolicy('n1', 'production', { wasm: true })).not.toContain("'unsafe-eval'");
  });
});
