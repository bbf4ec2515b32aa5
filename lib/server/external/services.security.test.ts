/**
 * Issue 11, Low: error details named configured external services (and, through fetch's
 * causes, their hosts). Errors become verdict text anyone can read; over real HTTP, they now
 * name only the service the blueprint asked for.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExternalCallPort } from './services';

let server: Server;
let origin = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/html') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>internal-dashboard.corp secret-body</html>');
    if (req.url === '/down') return void res.writeHead(503).end('maintenance on internal-dashboard.corp');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"score":1}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  origin = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function messageOf(p: Promise<unknown>): Promise<string> {
  const e = await p.then(() => null, (x: unknown) => x);
  expect(e).toBeInstanceOf(Error);
  return (e as Error).message;
}

describe('external service errors say nothing about the configuration', () => {
  it('names only the requested service, never the others, their URLs, hosts or bodies', async () => {
    const logged: string[] = [];
    const services = {
      'internal-factcheck': `${origin}/ok`,
      'billing-scorer': `${origin}/html`,
      'flaky': `${origin}/down`,
      'gone': 'http://127.0.0.1:9/nothing-listens-here',
    };
    const port = createExternalCallPort(services, { log: (line) => void logged.push(line), timeoutMs: 5000 });
    const messages = [
      await messageOf(port.call('nope', {})),
      await messageOf(port.call('billing-scorer', {})),
      await messageOf(port.call('flaky', {})),
      await messageOf(port.call('gone', {})),
    ];
    expect(messages).toEqual([
      'external service "nope" is not configured; a maintainer adds it to ASSAY_EXTERNAL_SERVICES',
      'external service "billing-scorer" answered something that is not JSON',
      'external service "flaky" answered HTTP 503',
      'external service "gone" could not be reached (the server log has the details)',
    ]);
    const all = messages.join('\n');
    for (const leak of ['internal-factcheck', '127.0.0.1', 'internal-dashboard', 'secret-body', 'ECONNREFUSED', ':9']) expect(all).not.toContain(leak);
    // the maintainer still learns where it went wrong
    expect(logged.join('\n')).toContain('http://127.0.0.1:9/nothing-listens-here');
    expect(await port.call('internal-factcheck', {})).toEqual({ score: 1 });
  });
});
