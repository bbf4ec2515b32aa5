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
 *
 * PGlite itself accepts any password, so this server asks for one (MD5 challenge–response, so
 * the password never crosses the socket in clear) before it lets the startup through: with a
 * random password per start (pglite.ts), another local user or a web page's DNS-rebinding
 * trick cannot open the database by guessing `postgres`.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
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
  /** Its named prepared statements, as the backend knows them (scoped, see scopeStatement). */
  statements: Set<string>;
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
  private closing = false;

  /** `password`: required of every connection (user name any; PGlite has one role). */
  constructor(
    private readonly db: PGlite,
    private readonly opts: { password?: string } = {},
  ) {}

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
    // nothing more runs (a closing connection's cleanup would race the database's own close)
    this.closing = true;
    this.queue = [];
    for (const c of this.conns) c.socket.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    socket.setNoDelay(true);
    const conn: Connection = { id: this.nextId++, socket, buffer: Buffer.alloc(0), pending: [], closed: false, statements: new Set() };
    this.conns.add(conn);
    let startup = true;
    /** The startup message held back until the password is checked, and the challenge's salt. */
    let pending: { startup: Uint8Array; user: string; salt: Buffer } | null = null;
    socket.on('data', (chunk) => {
      conn.buffer = Buffer.concat([conn.buffer, chunk]);
      for (;;) {
        if (startup) {
          if (conn.buffer.length < 8) return;
          const len = conn.buffer.readInt32BE(0);
          if (len < 8 || len > 10_000) return void socket.destroy();
          if (conn.buffer.length < len) return;
          const code = conn.buffer.readInt32BE(4);
          const msg = conn.buffer.subarray(0, len);
          conn.buffer = conn.buffer.subarray(len);
          if (code === SSL_REQUEST || code === GSS_REQUEST) {
            socket.write('N'); // no encryption on loopback
            continue;
          }
          startup = false;
          if (this.opts.password === undefined) {
            this.enqueue(conn, [new Uint8Array(msg)]);
            continue;
          }
          const salt = randomBytes(4);
          pending = { startup: new Uint8Array(msg), user: startupUser(msg), salt };
          const challenge = Buffer.alloc(13);
          challenge.write('R', 0);
          challenge.writeInt32BE(12, 1);
          challenge.writeInt32BE(5, 5); // AuthenticationMD5Password
          salt.copy(challenge, 9);
          socket.write(challenge);
          continue;
        }
        if (conn.buffer.length < 5) return;
        const len = 1 + conn.buffer.readInt32BE(1);
        if (conn.buffer.length < len) return;
        const type = conn.buffer[0]!;
        if (pending) {
          const p = pending;
          const msg = conn.buffer.subarray(0, len);
          conn.buffer = conn.buffer.subarray(len);
          if (type !== 'p'.charCodeAt(0) || !md5Matches(msg.subarray(5), this.opts.password!, p.user, p.salt)) {
            socket.end(authFailed(p.user));
            return;
          }
          pending = null;
          this.enqueue(conn, [p.startup]);
          continue;
        }
        const scoped = scopeStatement(conn, new Uint8Array(conn.buffer.subarray(0, len)));
        if (!scoped) return void socket.destroy(); // a malformed message: PostgreSQL would drop the connection too
        conn.pending.push(scoped);
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
      // Its prepared statements go with it, as a server's go with the session (pools reconnect all day).
      if (conn.statements.size > 0 && !this.closing) {
        this.enqueue(conn, [...[...conn.statements].map(closeStatement), SYNC]);
        conn.statements.clear();
      }
    };
    socket.on('close', drop);
    socket.on('error', drop);
  }

  private enqueue(conn: Connection, parts: Uint8Array[]): void {
    if (this.closing) return;
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

/*
 * Named prepared statements belong to a session, and every connection here shares PGlite's one
 * session: two connections preparing the same name (a pool's connections all prepare the run
 * pipeline's statements, db/prepared.ts) would collide ("prepared statement already exists"),
 * and one's DEALLOCATE would drop the other's. So each connection's statement names are scoped
 * to it on the way in: Parse, Bind, and Describe/Close of a statement ('S'). The unnamed
 * statement stays shared (a batch runs whole, so no other connection's Parse gets between).
 */
const PARSE = 'P'.charCodeAt(0);
const BIND = 'B'.charCodeAt(0);
const DESCRIBE = 'D'.charCodeAt(0);
const CLOSE = 'C'.charCodeAt(0);
const STATEMENT = 'S'.charCodeAt(0);
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);

/** The message with the statement name at `at` (if not empty) scoped to the connection; null if it has no end. */
function scopeName(conn: Connection, msg: Uint8Array, at: number, parsed: boolean): Uint8Array | null {
  const end = at < msg.length ? msg.indexOf(0, at) : -1;
  if (end < 0) return null;
  if (end === at) return msg;
  const scoped = Buffer.from(`c${conn.id}:${Buffer.from(msg.subarray(at, end)).toString('utf8')}`);
  if (parsed) conn.statements.add(scoped.toString('utf8'));
  const out = Buffer.concat([msg.subarray(0, at), scoped, msg.subarray(end)]);
  out.writeInt32BE(out.length - 1, 1);
  return new Uint8Array(out);
}

function scopeStatement(conn: Connection, msg: Uint8Array): Uint8Array | null {
  switch (msg[0]) {
    case PARSE:
      return scopeName(conn, msg, 5, true);
    case BIND: {
      const portalEnd = msg.indexOf(0, 5);
      return portalEnd < 0 ? null : scopeName(conn, msg, portalEnd + 1, false); // after the portal's name
    }
    case DESCRIBE:
    case CLOSE:
      return msg[5] === STATEMENT ? scopeName(conn, msg, 6, false) : msg;
    default:
      return msg;
  }
}

/** Close (statement) of a scoped name. */
function closeStatement(name: string): Uint8Array {
  const body = Buffer.concat([Buffer.from([STATEMENT]), Buffer.from(name), Buffer.from([0])]);
  const head = Buffer.alloc(5);
  head.writeUInt8(CLOSE, 0);
  head.writeInt32BE(4 + body.length, 1);
  return new Uint8Array(Buffer.concat([head, body]));
}

/** The `user` parameter of a startup message (protocol 3: int32 length, int32 version, key\0value\0…\0). */
function startupUser(msg: Buffer): string {
  const parts = msg.subarray(8).toString('utf8').split('\0');
  for (let i = 0; i + 1 < parts.length; i += 2) if (parts[i] === 'user') return parts[i + 1]!;
  return '';
}

const md5 = (data: string | Buffer) => createHash('md5').update(data).digest('hex');

/** PostgreSQL's MD5 scheme: "md5" + md5(md5(password + user) + salt), compared in constant time. */
function md5Matches(body: Buffer, password: string, user: string, salt: Buffer): boolean {
  const sent = Buffer.from(body.toString('utf8').replace(/\0$/, ''));
  const expected = Buffer.from(`md5${md5(Buffer.concat([Buffer.from(md5(password + user)), salt]))}`);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

/** ErrorResponse 28P01, as PostgreSQL answers a wrong password. */
function authFailed(user: string): Buffer {
  const fields = [`SFATAL`, `VFATAL`, `C28P01`, `Mpassword authentication failed for user "${user.replace(/[^\w.-]/g, '?')}"`];
  const body = Buffer.concat([...fields.map((f) => Buffer.from(`${f}\0`)), Buffer.from([0])]);
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([head, body]);
}
