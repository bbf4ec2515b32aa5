/**
 * One HTTP GET measured the way a browser sees it: time to first byte (response headers),
 * time to the last byte, bytes on the wire (gzip accepted, as browsers do) and decoded size.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';

export interface Measurement {
  status: number;
  ttfbMs: number;
  totalMs: number;
  transferBytes: number;
  decodedBytes: number;
}

export function measure(url: string): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { headers: { 'accept-encoding': 'gzip', accept: 'text/html,application/json' }, agent: false }, (res) => {
      const ttfbMs = performance.now() - started;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const totalMs = performance.now() - started;
        const body = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const decoded = encoding === 'gzip' ? gunzipSync(body) : encoding === 'br' ? brotliDecompressSync(body) : body;
        resolve({ status: res.statusCode ?? 0, ttfbMs, totalMs, transferBytes: body.length, decodedBytes: decoded.length });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(120_000, () => req.destroy(new Error(`timeout: ${url}`)));
  });
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

/** `warmup` unmeasured requests, then the median of `samples` measured ones. */
export async function measureMedian(url: string, samples = 7, warmup = 2): Promise<Measurement> {
  for (let i = 0; i < warmup; i++) await measure(url);
  const runs: Measurement[] = [];
  for (let i = 0; i < samples; i++) runs.push(await measure(url));
  const statuses = new Set(runs.map((r) => r.status));
  return {
    status: statuses.size === 1 ? (runs[0] as Measurement).status : -1,
    ttfbMs: median(runs.map((r) => r.ttfbMs)),
    totalMs: median(runs.map((r) => r.totalMs)),
    transferBytes: median(runs.map((r) => r.transferBytes)),
    decodedBytes: median(runs.map((r) => r.decodedBytes)),
  };
}
