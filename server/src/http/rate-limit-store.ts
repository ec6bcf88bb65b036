/**
 * Where the rate limits count, chosen in one place, so that a client's requests split across
 * several servers are limited as if there were one: REDIS_URL's Redis when it is set; else the
 * database when it is PostgreSQL, which several servers may share; else this process's memory
 * (the embedded PGlite belongs to one process by construction). `rateLimitStoreOptions` turns
 * the choice into the options every @fastify/rate-limit registration spreads in: the /auth/v1
 * limits, the agent API's, the assistant's and the owner surfaces' (owner-rate-limit.ts).
 */
import type { RateLimitPluginOptions } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { Database } from '@purser/db';
import type { RateLimitStore } from '../deps';
import type { Logger } from '../logger';
import { createRateLimitCounters } from '../services/rate-limits/rate-limit-counters';
import { databaseRateLimitStore } from './rate-limit-store-database';

/** The registrations, each counting under its own name, so one key is never counted by two of them. */
export type RateLimitName = 'auth' | 'agent-api' | 'assistant' | 'owner' | 'owner-search' | 'oauth';

/** The Redis keys of every rate limit begin with this; the route and the client key follow. */
export const REDIS_KEY_PREFIX = 'purser:rate-limit:';

export function chooseRateLimitStore(deps: { db: Database; logger: Logger; redis?: Redis }): RateLimitStore {
  if (deps.redis) return { kind: 'redis', client: deps.redis, keyPrefix: REDIS_KEY_PREFIX };
  if (deps.db.kind === 'postgres') return { kind: 'database', counters: createRateLimitCounters(deps) };
  return { kind: 'memory' };
}

export type RateLimitStoreOptions = Pick<RateLimitPluginOptions, 'store' | 'redis' | 'nameSpace' | 'skipOnError'>;

/** The store options of the registration `limit`; none for memory (the plugin's default). */
export function rateLimitStoreOptions(store: RateLimitStore = { kind: 'memory' }, limit: RateLimitName): RateLimitStoreOptions {
  if (store.kind === 'database') {
    // skipOnError stays off: a request that cannot reach the database to count itself could
    // not be served anyway, and answers 503 like any other request then.
    return { store: databaseRateLimitStore(store.counters, limit) };
  }
  if (store.kind === 'redis') {
    return {
      redis: store.client,
      nameSpace: `${store.keyPrefix}${limit}:`,
      // While Redis cannot answer, requests go through uncounted (fail open) rather than all
      // failing: Redis holds nothing but these counters, so otherwise an outage of it would take
      // every limited route down, sign-in included. The limits are brakes on abuse, not the
      // guard of money: spending rules, the ledger and the per-email sign-in back-off live in
      // the database and hold throughout. The outage is logged while it lasts
      // (rate-limit-store-redis.ts) and ends by itself when Redis returns.
      skipOnError: true,
    };
  }
  return {};
}
