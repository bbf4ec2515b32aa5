/**
 * Runs before every route (Next's proxy, formerly middleware): refuses paths whose segments
 * cannot be ids (lib/server/http/path-check.ts), and gives each page a Content-Security-Policy
 * with a fresh nonce (lib/server/http/csp.ts). Next reads the nonce from the request's CSP
 * header and puts it on its own scripts, so pages are rendered per request.
 */
import { NextResponse, type NextRequest } from 'next/server';
import { contentSecurityPolicy, newNonce } from '@/lib/server/http/csp';
import { checkRequestPath, checkRequestQuery } from '@/lib/server/http/path-check';

export function proxy(request: NextRequest): NextResponse {
  const problem = checkRequestPath(request.nextUrl.pathname) ?? checkRequestQuery(request.nextUrl.search);
  if (problem) {
    const api = request.nextUrl.pathname.startsWith('/api/');
    return api
      ? NextResponse.json({ error: { code: 'bad_request', message: problem.message } }, { status: problem.status })
      : new NextResponse(`${problem.status} Bad request: ${problem.message}\n`, { status: problem.status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  const nonce = newNonce();
  // /author's browser check runs `$js` points in the QuickJS WebAssembly sandbox
  const csp = contentSecurityPolicy(nonce, process.env.NODE_ENV === 'development' ? 'development' : 'production', { wasm: request.nextUrl.pathname === '/author' });
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', csp);
  return response;
}

export const config = {
  // Static files need no policy of their own. The webhook and Inngest endpoints have no dynamic
  // segment and must get their bodies as streamed: a proxy makes Next buffer a body (up to 10 MB)
  // before the route, which would defeat the webhook's streaming size cap. Everything else,
  // API routes included, has its path checked.
  matcher: [{ source: '/((?!_next/static|_next/image|favicon.ico|api/webhooks/|api/inngest).*)' }],
};
