/**
 * Serves the product's open PGlite over the PostgreSQL wire protocol on 127.0.0.1, so
 * command-line tools can use the database while the product holds its files.
 *
 * PGlite is a single database session shared by everyone who talks to it. pglite-socket
 * only takes PGlite's query lock around each protocol message, so by itself a tool's
 * statements could land inside one of the product's transactions, or between the Parse and
 * the Sync of one of the product's queries, and the other way round. To keep them apart,
 * the socket side holds PGlite's transaction lock (which every in-process query, exec and
 * transaction takes) from a client's first message until the session is idle again: after
 * a Sync or simple Query that leaves no transaction open.
 */
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export type SocketServer = { port: number; stop(): Promise<void> };

export async function serveSocket(pglite: PGlite): Promise<SocketServer> {
  const gate = new SocketGate(pglite);
  const server = new PGLiteSocketServer({
    db: gate.view(),
    host: '127.0.0.1',
    port: 0,
    // One client at a time: with several, pglite-socket's single FIFO queue could wait on
    // a client that holds the gate while that client's next message sits behind it.
    maxConnections: 1,
  });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  return {
    port,
    async stop() {
      await server.stop();
      await gate.abandon();
    },
  };
}

const QUERY = 0x51; // 'Q'
const SYNC = 0x53; // 'S'
const TERMINATE = 0x58; // 'X'

class SocketGate {
  readonly #db: PGlite;
  #release: (() => void) | undefined;
  #lastMessageEndsExchange = false;

  constructor(db: PGlite) {
    this.#db = db;
  }

  /** The PGlite that pglite-socket sees: the real one with gated entry points. */
  view(): PGlite {
    const overrides: Partial<Record<keyof PGlite, unknown>> = {
      runExclusive: (fn: () => Promise<unknown>) => this.#run(fn),
      execProtocolRawStream: (message: Uint8Array, options: Parameters<PGlite['execProtocolRawStream']>[1]) => {
        // A startup packet starts with its length (first byte 0); it is a complete exchange.
        const type = message[0];
        this.#lastMessageEndsExchange = type === QUERY || type === SYNC || type === TERMINATE || type === 0;
        return this.#db.execProtocolRawStream(message, options);
      },
      // pglite-socket asks this to decide whether a disconnecting client left a transaction
      // open; a client holding the gate mid-exchange counts, so the gate is released.
      isInTransaction: () => this.#db.isInTransaction() || this.#release !== undefined,
      // Only called by pglite-socket to roll back a disconnected client's transaction.
      exec: async () => {
        await this.abandon();
        return [];
      },
    };
    return new Proxy(this.#db, {
      get: (target, property, receiver) => {
        if (Object.hasOwn(overrides, property)) return overrides[property as keyof PGlite];
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  async #run<T>(fn: () => Promise<T>): Promise<T> {
    this.#release ??= await this.#acquire();
    try {
      return await this.#db.runExclusive(fn);
    } finally {
      if (this.#lastMessageEndsExchange && !this.#db.isInTransaction()) this.#open();
    }
  }

  /** Rolls back whatever the socket client left open and lets the product continue. */
  async abandon(): Promise<void> {
    if (!this.#release) return;
    if (this.#db.isInTransaction()) {
      await this.#db.runExclusive(() => this.#db.execProtocolRaw(simpleQuery('ROLLBACK')));
    }
    this.#open();
  }

  #acquire(): Promise<() => void> {
    return new Promise((acquired) => {
      void this.#db._runExclusiveTransaction(() => new Promise<void>((release) => acquired(release)));
    });
  }

  #open(): void {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }
}

function simpleQuery(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`, 'utf8');
  const message = Buffer.alloc(5 + text.length);
  message[0] = QUERY;
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return message;
}
