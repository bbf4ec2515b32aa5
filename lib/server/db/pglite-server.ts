/**
 * Serves an embedded PGlite over TCP to many connections (the app's pool, the CLI, Prisma
 * Migrate). PGlite runs one wire-protocol stream at a time, so connections must take turns
 * — but at the granularity of whole request batches, not single messages: pg's extended
 * protocol sends Parse/Bind/Describe/Execute/Sync as one unit, and interleaving another
 * connection's Parse between them replaces the unnamed statement ("bind message supplies 3
 * parameters, but prepared statement requires 4"). @electric-sql/pglite-socket 0.1.x queues
 * single messages, which breaks under concurrency; this server queues batches ending at Sync
 * or a simple Query, and while a connection holds an open transaction only that connection's
 * batches run, so transactions stay isolated.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

interface Batch {
  conn: Connection;
  bytes: Uint8Array;
  done: () => void;
}

interface Connection {
  id: number;
  socket: Socket;
  buffer: Buffer;
  pending: Uint8Array[];
  closed: boolean;
}

/** Message types that end a unit of work the backend answers with ReadyForQuery. */
const FLUSHING = new Set(['S'.charCodeAt(0), 'Q'.charCodeAt(0), 'X'.charCodeAt(0)]);
const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;

export class PgliteServer {
  private server: Server | null = null;
  private queue: Batch[] = [];
  private running = false;
  /** The connection whose transaction is open: only its batches may run until it ends. */
  private owner: Connection | null = null;
  private nextId = 1;
  private readonly conns = new Set<Connection>();

  constructor(private readonly db: PGlite) {}

  async listen(port: number, host = '127.0.0.1'): Promise<number> {
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    const addr = server.address();
    if (!addr || typeof addr !== 'object') throw new Error('PGlite server has no TCP address');
    return addr.port;
  }

  async close(): Promise<void> {
    for (const c of this.conns) c.socket.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    socket.setNoDelay(true);
    const conn: Connection = { id: this.nextId++, socket, buffer: Buffer.alloc(0), pending: [], closed: false };
    this.conns.add(conn);
    let startup = true;
    socket.on('data', (chunk) => {
      conn.buffer = Buffer.concat([conn.buffer, chunk]);
      for (;;) {
        if (startup) {
          if (conn.buffer.length < 8) return;
          const len = conn.buffer.readInt32BE(0);
          if (conn.buffer.length < len) return;
          const code = conn.buffer.readInt32BE(4);
          const msg = conn.buffer.subarray(0, len);
          conn.buffer = conn.buffer.subarray(len);
          if (code === SSL_REQUEST || code === GSS_REQUEST) {
            socket.write('N'); // no encryption on loopback
            continue;
          }
          startup = false;
          this.enqueue(conn, [new Uint8Array(msg)]);
          continue;
        }
        if (conn.buffer.length < 5) return;
        const len = 1 + conn.buffer.readInt32BE(1);
        if (conn.buffer.length < len) return;
        const type = conn.buffer[0]!;
        conn.pending.push(new Uint8Array(conn.buffer.subarray(0, len)));
        conn.buffer = conn.buffer.subarray(len);
        if (FLUSHING.has(type)) {
          const parts = conn.pending;
          conn.pending = [];
          this.enqueue(conn, parts);
        }
      }
    });
    const drop = () => {
      if (conn.closed) return;
      conn.closed = true;
      this.conns.delete(conn);
      this.queue = this.queue.filter((b) => b.conn !== conn);
      // A client that vanished inside a transaction must not leave it holding the database.
      if (this.owner === conn) {
        this.owner = null;
        void this.db.exec('ROLLBACK').catch(() => {}).finally(() => this.pump());
      }
    };
    socket.on('close', drop);
    socket.on('error', drop);
  }

  private enqueue(conn: Connection, parts: Uint8Array[]): void {
    const bytes = parts.length === 1 ? parts[0]! : new Uint8Array(Buffer.concat(parts));
    this.queue.push({ conn, bytes, done: () => {} });
    this.pump();
  }

  private next(): Batch | undefined {
    if (this.owner) {
      const i = this.queue.findIndex((b) => b.conn === this.owner);
      return i === -1 ? undefined : this.queue.splice(i, 1)[0];
    }
    return this.queue.shift();
  }

  private pump(): void {
    if (this.running) return;
    this.running = true;
    void (async () => {
      try {
        for (let batch = this.next(); batch; batch = this.next()) {
          const { conn } = batch;
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(batch.bytes, {
              onRawData: (data) => {
                if (!conn.closed && conn.socket.writable) conn.socket.write(Buffer.from(data));
              },
            }),
          );
          this.owner = this.db.isInTransaction() && !conn.closed ? conn : null;
        }
      } finally {
        this.running = false;
      }
    })();
  }
}
