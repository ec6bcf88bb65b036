/**
 * Rate limit counters in the database (table `rate_limit_counters`), so every server on one
 * PostgreSQL counts a client's requests together: fixed windows, as @fastify/rate-limit's own
 * stores keep them. A hit is one atomic upsert that starts a new window when the last one has
 * passed; windows are measured by the database's clock, the one clock all servers share.
 * Counters whose window has passed mean nothing, and are swept now and then so the table holds
 * only the clients of the last window or so.
 *
 * A limit of at least 2 × BATCH_DIVISOR hits per window is counted in batches: a server claims a
 * hundredth of the limit in one upsert and counts those hits in its memory, so a busy key costs
 * one statement per batch instead of one per request (an agent calling GET /balance 200 times a
 * second under a limit high enough for it). Every hit is still in the shared count, claimed
 * before it is served, so the servers together never let through more than the limit; a batch a
 * server has not used up counts against the others as if it had, so with several servers a client
 * may be refused up to a hundredth of the limit early per server. Smaller limits (the defaults of
 * sign-in and of the agent API among them) are counted hit by hit, exactly, as before.
 */
import { Prisma, type Database } from '@purser/db';
import type { Logger } from '../../logger';

/** A counter as the rate limit reads it: hits in the window, and the window's remaining milliseconds. */
export interface CounterState {
  current: number;
  ttl: number;
}

export interface RateLimitCounters {
  /**
   * Counts a hit on `key`, starting a window of `windowMs` when none is running. `max`, the
   * limit, sizes the batches this server claims (none without it).
   */
  hit(key: string, windowMs: number, max?: number): Promise<CounterState>;
  /** The counter as it stands, counting nothing: `{ current: 0, ttl: 0 }` when no window runs. */
  read(key: string): Promise<CounterState>;
  /** Deletes the counters whose window has passed; answers how many. */
  sweep(): Promise<number>;
}

export interface RateLimitCounterSettings {
  /** How often a hit also sweeps (each process sweeps on its own; any of them will do). */
  sweepEveryMs: number;
}

export const DEFAULT_RATE_LIMIT_COUNTER_SETTINGS: RateLimitCounterSettings = { sweepEveryMs: 60_000 };

type CounterRow = { count: number; ttl: number };

/** A batch is this fraction of the limit (1/100), rounded down; below 2 hits, hits are counted one by one. */
const BATCH_DIVISOR = 100;

/** Hits this server claimed in the shared count and serves from its memory. */
interface Batch {
  /** The window's count before the batch was claimed. */
  base: number;
  size: number;
  used: number;
  /** When the window ends, by this process's clock: counted from before the claim was sent, so not after the database's end. */
  endsAt: number;
}

function batchSize(max: number | undefined): number {
  return max === undefined ? 1 : Math.max(1, Math.floor(max / BATCH_DIVISOR));
}

/** The window's remaining milliseconds, from the row's reset_at. */
const remainingMs = Prisma.sql`GREATEST(0, CEIL(EXTRACT(EPOCH FROM ("reset_at" - now())) * 1000))::int`;

export function createRateLimitCounters(
  deps: { db: Database; logger: Logger },
  settings: Partial<RateLimitCounterSettings> = {},
): RateLimitCounters {
  const { prisma } = deps.db;
  const { sweepEveryMs } = { ...DEFAULT_RATE_LIMIT_COUNTER_SETTINGS, ...settings };
  let lastSweep = -Infinity;
  const batches = new Map<string, Batch>();
  /** The claim in flight per key: hits arriving meanwhile wait for it rather than claim a batch each. */
  const claims = new Map<string, Promise<void>>();

  const sweep = async () => {
    const now = Date.now();
    for (const [key, batch] of batches) if (batch.endsAt <= now) batches.delete(key);
    return prisma.$executeRaw`DELETE FROM "rate_limit_counters" WHERE "reset_at" <= now()`;
  };

  /** Adds `hits` to the key's count in one statement; answers the count with them and the window's remaining ms. */
  const add = async (key: string, windowMs: number, hits: number): Promise<CounterRow> => {
    // ON CONFLICT ... DO UPDATE takes the row's lock, so racing hits from several servers are
    // each counted once, in turn; SET reads the row as it was before this hit.
    const [row] = await prisma.$queryRaw<CounterRow[]>`
      INSERT INTO "rate_limit_counters" AS c ("key", "count", "reset_at")
      VALUES (${key}, ${hits}::int, now() + ${windowMs}::int * interval '1 millisecond')
      ON CONFLICT ("key") DO UPDATE SET
        "count" = CASE WHEN c."reset_at" <= now() THEN excluded."count" ELSE c."count" + excluded."count" END,
        "reset_at" = CASE WHEN c."reset_at" <= now() THEN excluded."reset_at" ELSE c."reset_at" END
      RETURNING "count", ${remainingMs} AS "ttl"`;
    if (!row) throw new Error('the rate limit counter upsert returned no row');
    // Once in a while, the request that happens to come pays for the sweep (a few
    // milliseconds): nothing runs on a timer, and nothing is left running at shutdown.
    if (Date.now() - lastSweep >= sweepEveryMs) {
      lastSweep = Date.now();
      try {
        await sweep();
      } catch (error) {
        deps.logger.warn({ err: error }, 'sweeping expired rate limit counters failed; the next sweep tries again');
      }
    }
    return row;
  };

  const claim = async (key: string, windowMs: number, size: number): Promise<void> => {
    const sentAt = Date.now();
    const row = await add(key, windowMs, size);
    batches.set(key, { base: row.count - size, size, used: 0, endsAt: sentAt + row.ttl });
  };

  return {
    async hit(key, windowMs, max) {
      const size = batchSize(max);
      if (size === 1) {
        const row = await add(key, windowMs, 1);
        return { current: row.count, ttl: row.ttl };
      }
      for (;;) {
        const now = Date.now();
        const batch = batches.get(key);
        // A hit past the limit is served from the batch too, refused: the shared count already
        // says so, and stays past the limit until the window ends.
        if (batch && batch.endsAt > now && batch.used < batch.size) {
          batch.used++;
          return { current: batch.base + batch.used, ttl: batch.endsAt - now };
        }
        const pending = claims.get(key);
        if (pending) {
          await pending;
          continue;
        }
        const claiming = claim(key, windowMs, size).finally(() => claims.delete(key));
        claims.set(key, claiming);
        await claiming;
      }
    },

    async read(key) {
      const [row] = await prisma.$queryRaw<CounterRow[]>`
        SELECT "count", ${remainingMs} AS "ttl" FROM "rate_limit_counters" WHERE "key" = ${key} AND "reset_at" > now()`;
      if (!row) return { current: 0, ttl: 0 };
      // What this server claimed and has not served yet is no hit: the count as if it were given back.
      const batch = batches.get(key);
      const unused = batch && batch.endsAt > Date.now() ? batch.size - batch.used : 0;
      return { current: Math.max(0, row.count - unused), ttl: row.ttl };
    },

    sweep,
  };
}
