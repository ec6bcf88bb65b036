/**
 * Rate limit counters in the database (table `rate_limit_counters`), so every server on one
 * PostgreSQL counts a client's requests together: fixed windows, as @fastify/rate-limit's own
 * stores keep them. A hit is one atomic upsert that starts a new window when the last one has
 * passed; windows are measured by the database's clock, the one clock all servers share.
 * Counters whose window has passed mean nothing, and are swept now and then so the table holds
 * only the clients of the last window or so.
 */
import { Prisma, type Database } from '@purser/db';
import type { Logger } from '../../logger';

/** A counter as the rate limit reads it: hits in the window, and the window's remaining milliseconds. */
export interface CounterState {
  current: number;
  ttl: number;
}

export interface RateLimitCounters {
  /** Counts a hit on `key`, starting a window of `windowMs` when none is running. */
  hit(key: string, windowMs: number): Promise<CounterState>;
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

/** The window's remaining milliseconds, from the row's reset_at. */
const remainingMs = Prisma.sql`GREATEST(0, CEIL(EXTRACT(EPOCH FROM ("reset_at" - now())) * 1000))::int`;

export function createRateLimitCounters(
  deps: { db: Database; logger: Logger },
  settings: Partial<RateLimitCounterSettings> = {},
): RateLimitCounters {
  const { prisma } = deps.db;
  const { sweepEveryMs } = { ...DEFAULT_RATE_LIMIT_COUNTER_SETTINGS, ...settings };
  let lastSweep = -Infinity;

  const sweep = async () =>
    prisma.$executeRaw`DELETE FROM "rate_limit_counters" WHERE "reset_at" <= now()`;

  return {
    async hit(key, windowMs) {
      // ON CONFLICT ... DO UPDATE takes the row's lock, so racing hits from several servers are
      // each counted once, in turn; SET reads the row as it was before this hit.
      const [row] = await prisma.$queryRaw<CounterRow[]>`
        INSERT INTO "rate_limit_counters" AS c ("key", "count", "reset_at")
        VALUES (${key}, 1, now() + ${windowMs}::int * interval '1 millisecond')
        ON CONFLICT ("key") DO UPDATE SET
          "count" = CASE WHEN c."reset_at" <= now() THEN 1 ELSE c."count" + 1 END,
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
      return { current: row.count, ttl: row.ttl };
    },

    async read(key) {
      const [row] = await prisma.$queryRaw<CounterRow[]>`
        SELECT "count", ${remainingMs} AS "ttl" FROM "rate_limit_counters" WHERE "key" = ${key} AND "reset_at" > now()`;
      return row ? { current: row.count, ttl: row.ttl } : { current: 0, ttl: 0 };
    },

    sweep,
  };
}
