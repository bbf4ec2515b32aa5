import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeHttpFetch } from './node-http-fetch';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

// a real HTTP server on loopback: each test picks its answer by path
let server: Server;
let base = '';
const seen: Seen[] = [];
const answers: Record<string, (res: ServerResponse) => void> = {
  '/json': (res) => {
    res.writeHead(201, 'Made', [['content-type', 'application/json'], ['x-request-id', 'req-1'], ['x-multi', 'a'], ['x-multi', 'b']]);
    res.end(JSON.stringify({ ok: true, text: 'héllo' }));
  },
  '/empty': (res) => {
    res.writeHead(204);
    res.end();
  },
  '/moved': (res) => {
    res.writeHead(302, { location: '/json' });
    res.end();
  },
  '/hang': () => {
    // never answers: the caller's signal must end it
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      (answers[req.url!] ?? ((r: ServerResponse) => r.writeHead(404).end()))(res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('nodeHttpFetch', () => {
  it('sends the method, headers and string body, and gives back status, every header and the body', async () => {
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'ünïcode' }] });
    const res = await nodeHttpFetch(`${base}/json`, { method: 'POST', headers: new Headers({ Authorization: 'Bearer k', 'Content-Type': 'application/json' }), body });
    const req = seen.at(-1)!;
    expect(req).toMatchObject({ method: 'POST', url: '/json', body });
    expect(req.headers).toMatchObject({ authorization: 'Bearer k', 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
    expect(res.status).toBe(201);
    expect(res.statusText).toBe('Made');
    expect(res.headers.get('x-request-id')).toBe('req-1');
    expect(res.headers.get('x-multi')).toBe('a, b');
    expect(await res.json()).toEqual({ ok: true, text: 'héllo' });
  });

  it('takes headers as a plain record too, and a GET without a body', async () => {
    const res = await nodeHttpFetch(new URL(`${base}/json`), { headers: { 'X-Attempt': '2' } });
    expect(seen.at(-1)).toMatchObject({ method: 'GET', body: '', headers: { 'x-attempt': '2' } });
    expect(res.ok).toBe(true);
  });

  it('gives a 204 no body at all, as fetch does', async () => {
    const res = await nodeHttpFetch(`${base}/empty`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
  });

  it('does not follow a redirect: the 3xx reaches the caller, as with redirect: manual', async () => {
    const res = await nodeHttpFetch(`${base}/moved`, { method: 'POST', body: '{}', redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/json');
    expect(seen.at(-1)!.url).toBe('/moved');
  });

  it('ends a call its signal aborts, with the signal’s reason', async () => {
    const controller = new AbortController();
    const call = nodeHttpFetch(`${base}/hang`, { method: 'POST', body: '{}', signal: controller.signal });
    setTimeout(() => controller.abort(new Error('deadline')), 50);
    await expect(call).rejects.toThrow('deadline');
  });

  it('refuses at once a call whose signal is already aborted, sending nothing', async () => {
    const before = seen.length;
    const controller = new AbortController();
    controller.abort();
    await expect(nodeHttpFetch(`${base}/json`, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen.length).toBe(before);
  });

  it('rejects when nothing listens (the SDK reports it as a connection error)', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    await expect(nodeHttpFetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('leaves a body that is not a string (a multipart upload) to the global fetch', async () => {
    const form = new FormData();
    form.append('purpose', 'batch');
    const res = await nodeHttpFetch(`${base}/json`, { method: 'POST', body: form });
    expect(res.status).toBe(201);
    const req = seen.at(-1)!;
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(req.body).toContain('name="purpose"');
  });
});
