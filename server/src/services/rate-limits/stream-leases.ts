/**
 * Leases on open streams, so a limit can count how many streams one owner holds at once across
 * every server: a stream takes a lease as it opens, renews it while it stays open and gives it
 * back when it ends. A server that dies holding leases leaves them to expire, so a crash locks
 * nobody out for longer than one lease.
 *
 * In the database, a lease is a row of `rate_limit_counters` (`<key>|<lease id>`, count 1, its
 * expiry as the window's end), swept with the counters once expired. Taking one counts the key's
 * live leases under a transaction-scoped advisory lock on the key, so two servers racing for the
 * last place cannot both get it. Redis keeps them beside it (http/stream-leases-redis.ts); a
 * single process, in memory.
 */
import { randomUUID } from 'node:crypto';
import type { Database, TransactionClient } from '@purser/db';

export interface StreamLeases {
  /** A lease on `key` for `leaseMs`, unless `max` live ones are held already: its id, or null. */
  acquire(key: string, max: number, leaseMs: number): Promise<string | null>;
  /** Extends a lease still held by `leaseMs` from now. */
  renew(key: string, leaseId: string, leaseMs: number): Promise<void>;
  release(key: string, leaseId: string): Promise<void>;
}

export function databaseStreamLeases(db: Database): StreamLeases {
  const { prisma } = db;
  return {
    async acquire(key, max, leaseMs) {
      const leaseId = randomUUID();
      const prefix = `${key}|`;
      const taken = await prisma.$transaction(async (tx: TransactionClient) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
        const [row] = await tx.$queryRaw<{ live: number }[]>`
          SELECT count(*)::int AS "live" FROM "rate_limit_counters" WHERE starts_with("key", ${prefix}) AND "reset_at" > now()`;
        if ((row?.live ?? 0) >= max) return false;
        await tx.$executeRaw`
          INSERT INTO "rate_limit_counters" ("key", "count", "reset_at")
          VALUES (${prefix + leaseId}, 1, now() + ${leaseMs}::int * interval '1 millisecond')`;
        return true;
      });
      return taken ? leaseId : null;
    },

    async renew(key, leaseId, leaseMs) {
      await prisma.$executeRaw`
        UPDATE "rate_limit_counters" SET "reset_at" = now() + ${leaseMs}::int * interval '1 millisecond' WHERE "key" = ${`${key}|${leaseId}`}`;
    },

    async release(key, leaseId) {
      await prisma.$executeRaw`DELETE FROM "rate_limit_counters" WHERE "key" = ${`${key}|${leaseId}`}`;
    },
  };
}

/** One process's leases (the embedded PGlite's deployment is one process). */
export function memoryStreamLeases(now: () => number = Date.now): StreamLeases {
  const held = new Map<string, Map<string, number>>();
  const live = (key: string) => {
    const leases = held.get(key) ?? new Map<string, number>();
    for (const [id, expiresAt] of leases) if (expiresAt <= now()) leases.delete(id);
    if (leases.size === 0) held.delete(key);
    return leases;
  };
  return {
    async acquire(key, max, leaseMs) {
      const leases = live(key);
      if (leases.size >= max) return null;
      const leaseId = randomUUID();
      leases.set(leaseId, now() + leaseMs);
      held.set(key, leases);
      return leaseId;
    },
    async renew(key, leaseId, leaseMs) {
      const leases = live(key);
      if (leases.has(leaseId)) leases.set(leaseId, now() + leaseMs);
    },
    async release(key, leaseId) {
      live(key).delete(leaseId);
    },
  };
}
