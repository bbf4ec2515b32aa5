/**
 * `npm run dev`'s Next dev server, in the launcher's own process (next's custom-server API)
 * instead of `next dev`'s two processes (its CLI, which only forks and watches, and next-server).
 * The launcher lives as long as the app anyway (it holds the embedded database), so this saves a
 * second and third Node process, and next's heap gets the launcher's lean V8 settings
 * (`--max-semi-space-size=2`, lib/server/lean-heap.ts). Measured on the memory bench: the dev
 * tree settled at ~700 MB instead of ~1,150 MB (docs/limits.md, "Memory").
 *
 * What `next dev`'s CLI did and this does not: restart the server when next.config.mjs changes
 * (next says so in the terminal; stop and start `npm run dev` again). Options of `next dev` other
 * than the port and host name are left to next's own CLI (`inProcessOptions` returns null).
 */
import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

export interface InProcessOptions {
  hostname: string | null;
}

/** The options this server understands, or null when `next dev` was given others (next's CLI then runs). */
export function inProcessOptions(args: readonly string[]): InProcessOptions | null {
  let hostname: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-H' || a === '--hostname') {
      const value = args[i + 1];
      if (value === undefined) return null;
      hostname = value;
      i++;
    } else if (a.startsWith('--hostname=')) hostname = a.slice('--hostname='.length);
    else return null;
  }
  return { hostname };
}

export interface DevServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts Next's dev server (Turbopack) on `port`. The app's environment (what next's CLI child
 * was given) is the caller's to set on this process first: next and the app read process.env.
 */
export async function startDevServer(port: number, { hostname }: InProcessOptions): Promise<DevServer> {
  const { default: next } = await import('next');
  const app = next({ dev: true, turbopack: true, dir: process.cwd(), hostname: hostname ?? 'localhost', port });
  await app.prepare();
  const handle = app.getRequestHandler();
  // next answers its own errors; one that escapes it is logged and ends that request, not the process
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      console.error('assay: the dev server failed on', req.url, e);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  });
  // Next's live reload (HMR) is a WebSocket on the same port. An open tab holds it for as long
  // as the tab is open, and the server no longer tracks a socket once upgraded: closing must end them.
  const upgraded = new Set<Duplex>();
  const upgrade = app.getUpgradeHandler();
  server.on('upgrade', (req, socket, head) => {
    upgraded.add(socket);
    socket.once('close', () => upgraded.delete(socket));
    upgrade(req, socket, head).catch((e: unknown) => {
      console.error('assay: the dev server failed on a WebSocket', req.url, e);
      socket.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // as next's CLI: every interface unless a host name is given
    if (hostname) server.listen(port, hostname, resolve);
    else server.listen(port, resolve);
  });
  return {
    url: `http://${hostname ?? 'localhost'}:${port}`,
    async close() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      // kept-alive connections and the browsers' live-reload sockets would hold close() open
      server.closeAllConnections();
      for (const socket of upgraded) socket.destroy();
      await closed;
      await app.close();
    },
  };
}
