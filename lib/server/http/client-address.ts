/**
 * Who is the client, for per-client rate limits. `X-Forwarded-For` is written by whoever sent
 * the request, so it is believed only as far as it was added by proxies the maintainer
 * configured (ASSAY_TRUSTED_PROXIES): the chain is the forwarded hops followed by the TCP peer,
 * read from the right, skipping trusted proxies; the first untrusted address is the client.
 * With no trusted proxies, the client is the TCP peer, whatever the headers say.
 *
 * Next's route handlers never see the socket, so `installPeerAddressHeader` (called from
 * instrumentation.ts in the server process) stamps the peer into PEER_HEADER before Next reads
 * the request, overwriting any value a client sent. Without that stamp the address is unknown
 * and every such request shares one key: a limit that can be shared, never one that is skipped.
 */
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

export const PEER_HEADER = 'x-assay-peer';
/** The key of requests whose peer is not known (no stamp): all of them count together. */
export const UNKNOWN_CLIENT = 'unknown';

const STAMPED = Symbol.for('assay.peer-address-header');

/** IPv4 clients of a dual-stack socket appear as `::ffff:a.b.c.d`; one client, one spelling. */
export function normaliseAddress(address: string): string {
  const a = address.trim().replace(/^\[(.*)\]$/, '$1');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  return (mapped ? mapped[1]! : a).toLowerCase();
}

export type TrustedProxies = BlockList;

/**
 * Parses `10.0.0.0/8, 192.168.1.7, fd00::/8`. Throws with the offending entry, so a typo
 * stops start-up instead of silently trusting nothing (or everything).
 */
export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const list = new BlockList();
  for (const raw of (value ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [addr = '', prefix, extra] = raw.split('/');
    const family = isIP(addr);
    if (!family || extra !== undefined) throw new Error(`"${raw}" is not an IP address or CIDR range (e.g. 10.0.0.0/8 or 2001:db8::/32)`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) {
      list.addAddress(normaliseAddress(addr), type);
      continue;
    }
    const bits = Number(prefix);
    if (!/^\d+$/.test(prefix) || bits > (family === 4 ? 32 : 128)) throw new Error(`"${raw}": the prefix length must be 0–${family === 4 ? 32 : 128}`);
    list.addSubnet(addr, bits, type);
  }
  return list;
}

function trusted(list: TrustedProxies, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The client's address: see the module comment. */
export function clientAddress(headers: Headers, proxies: TrustedProxies): string {
  const peer = headers.get(PEER_HEADER);
  if (!peer || !isPeerStampInstalled()) return UNKNOWN_CLIENT;
  const hops = (headers.get('x-forwarded-for') ?? '').split(',').map(normaliseAddress).filter(Boolean);
  const chain = [...hops, normaliseAddress(peer)];
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = chain[i]!;
    // anything left of an untrusted hop was written by the client: stop there
    if (!trusted(proxies, hop)) return isIP(hop) ? hop : UNKNOWN_CLIENT;
  }
  return chain[0]!;
}

function isPeerStampInstalled(): boolean {
  return (globalThis as Record<symbol, unknown>)[STAMPED] === true;
}

/**
 * Subscribes to Node's `http.server.request.start` channel (published before the server's
 * 'request' event, so before Next sees the request) and writes the socket's peer address into
 * PEER_HEADER. Idempotent; returns whether it is installed.
 */
export function installPeerAddressHeader(): boolean {
  const g = globalThis as Record<symbol, unknown>;
  if (g[STAMPED] === true) return true;
  subscribe('http.server.request.start', (message) => {
    const { request } = message as { request: IncomingMessage };
    request.headers[PEER_HEADER] = request.socket.remoteAddress ?? '';
  });
  g[STAMPED] = true;
  return true;
}
