/**
 * LISTEN on PostgreSQL for Database.listen(). Notifications need a session that stays
 * connected, which a pool cannot give, so one dedicated pg.Client carries every channel this
 * process listens to. It is opened on the first listen, closed when the last one stops, and
 * re-opened with back-off when the connection drops. Whatever was notified while it was
 * down is lost: each listener's onReconnect says so, so it can re-read what it shows.
 */
import pg from 'pg';
import type { Logger } from './logger';

export type ListenOptions = {
  /**
   * Called once LISTEN is active again after the connection was lost. Notifications sent in
   * between were not delivered.
   */
  onReconnect?: () => void;
};

type Listener = { onPayload: (payload: string) => void; onReconnect?: () => void };

/** How the connection shows in pg_stat_activity. */
export const APPLICATION_NAME = 'purser-listen';
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;

export class PgListener {
  readonly #connectionString: string;
  readonly #logger: Logger;
  readonly #channels = new Map<string, Set<Listener>>();
  #client: pg.Client | undefined;
  #connecting: Promise<pg.Client> | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #retryMs = RETRY_FIRST_MS;
  /** A connection was lost: the next one to come up tells every listener. */
  #missedNotifications = false;
  #closed = false;

  constructor(connectionString: string, logger: Logger) {
    this.#connectionString = connectionString;
    this.#logger = logger;
  }

  async listen(channel: string, onPayload: (payload: string) => void, options: ListenOptions = {}): Promise<() => Promise<void>> {
    if (this.#closed) throw new Error('The database is closed');
    const listener: Listener = { onPayload, onReconnect: options.onReconnect };
    let listeners = this.#channels.get(channel);
    const first = listeners === undefined;
    if (!listeners) {
      listeners = new Set();
      this.#channels.set(channel, listeners);
    }
    listeners.add(listener);
    try {
      const client = await this.#connect();
      // A fresh connection has already listened to every channel in the map.
      if (first) await client.query(`LISTEN ${quoteIdentifier(channel)}`);
    } catch (error) {
      await this.#remove(channel, listener);
      throw error;
    }
    let listening = true;
    return async () => {
      if (!listening) return;
      listening = false;
      await this.#remove(channel, listener);
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#channels.clear();
    clearTimeout(this.#retryTimer);
    await this.#disconnect();
  }

  async #remove(channel: string, listener: Listener): Promise<void> {
    const listeners = this.#channels.get(channel);
    if (!listeners?.delete(listener) || listeners.size > 0) return;
    this.#channels.delete(channel);
    if (this.#channels.size === 0) {
      clearTimeout(this.#retryTimer);
      this.#missedNotifications = false;
      await this.#disconnect();
    } else {
      await this.#client?.query(`UNLISTEN ${quoteIdentifier(channel)}`).catch(() => {});
    }
  }

  /** The connected client, connecting (and listening to every channel) first if needed. */
  #connect(): Promise<pg.Client> {
    if (this.#client) return Promise.resolve(this.#client);
    this.#connecting ??= (async () => {
      const client = new pg.Client({ connectionString: this.#connectionString, keepAlive: true, application_name: APPLICATION_NAME });
      client.on('notification', (message) => this.#deliver(message.channel, message.payload ?? ''));
      // Without an 'error' listener a dropped connection would crash the process.
      client.on('error', (error) => this.#lost(client, error));
      client.on('end', () => this.#lost(client, undefined));
      try {
        await client.connect();
        for (const channel of this.#channels.keys()) await client.query(`LISTEN ${quoteIdentifier(channel)}`);
      } catch (error) {
        client.removeAllListeners('end');
        await client.end().catch(() => {});
        throw error;
      }
      this.#client = client;
      this.#retryMs = RETRY_FIRST_MS;
      if (this.#missedNotifications) {
        this.#missedNotifications = false;
        this.#logger.info({ channels: [...this.#channels.keys()] }, 'LISTEN connection restored');
        this.#reconnected();
      }
      return client;
    })().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #disconnect(): Promise<void> {
    const client = this.#client ?? (await this.#connecting?.catch(() => undefined));
    this.#client = undefined;
    if (!client) return;
    client.removeAllListeners('end');
    await client.end().catch(() => {});
  }

  #deliver(channel: string, payload: string): void {
    for (const listener of this.#channels.get(channel) ?? []) {
      try {
        listener.onPayload(payload);
      } catch (error) {
        this.#logger.warn({ err: error, channel }, 'A notification listener failed');
      }
    }
  }

  #lost(client: pg.Client, error: Error | undefined): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    client.removeAllListeners('end');
    client.end().catch(() => {});
    if (this.#closed || this.#channels.size === 0) return;
    this.#missedNotifications = true;
    this.#logger.warn({ err: error }, 'LISTEN connection lost; reconnecting');
    this.#scheduleReconnect();
  }

  #scheduleReconnect(): void {
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      if (this.#closed || this.#channels.size === 0 || this.#client) return;
      this.#connect().catch((error: unknown) => {
        this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MAX_MS);
        this.#logger.warn({ err: error, retryMs: this.#retryMs }, 'LISTEN reconnect failed');
        this.#scheduleReconnect();
      });
    }, this.#retryMs);
    this.#retryTimer.unref();
  }

  #reconnected(): void {
    for (const listeners of this.#channels.values()) {
      for (const listener of listeners) {
        try {
          listener.onReconnect?.();
        } catch (error) {
          this.#logger.warn({ err: error }, 'A notification listener failed on reconnect');
        }
      }
    }
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
