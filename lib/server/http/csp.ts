/**
 * The Content-Security-Policy of every page, with a fresh nonce per request (proxy.ts makes
 * one and Next puts it on its own scripts). Replies and blueprints are untrusted text: no
 * script runs unless it carries this request's nonce ('strict-dynamic' lets those load the
 * chunks they need), no inline handler, no remote content, and forms post only to this site.
 */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/**
 * `wasm`: the page may compile WebAssembly ('wasm-unsafe-eval', which allows no JavaScript eval):
 * only /author, whose browser check runs `$js` points in the QuickJS wasm sandbox
 * (docs/authoring.md).
 */
export function contentSecurityPolicy(nonce: string, mode: 'production' | 'development', opts: { wasm?: boolean } = {}): string {
  const dev = mode === 'development';
  return [
    "default-src 'self'",
    // development: React's dev build evaluates code and the dev server pushes updates over a websocket
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : opts.wasm ? " 'wasm-unsafe-eval'" : ''}`,
    // style attributes come from React (charts, bars); they cannot run code
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${dev ? ' ws:' : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
