/**
 * The database's rate limit counters (services/rate-limits/rate-limit-counters.ts) as a store
 * of @fastify/rate-limit. The plugin builds the store itself (`new store(options)`) and asks it
 * for a child per route that has a limit of its own; each child counts under its route's
 * prefix, as the plugin's in-memory store keeps one map per route, so one address is counted
 * apart on each route. A registration without route limits (the agent API's) counts all its
 * routes together under the limit's name.
 *
 * `incr` hands the counters the limit, which sizes the batches they count a high limit in.
 * `read` (`createRateLimit()(request, { increment: false })`) is what the MCP batch charger
 * asks before it charges a batch. The plugin's `continueExceeding` and `exponentialBackoff` are
 * not offered: no limit here uses them.
 */
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { CounterState, RateLimitCounters } from '../services/rate-limits/rate-limit-counters';

type Callback = (error: Error | null, result?: CounterState) => void;

class DatabaseRateLimitStore implements FastifyRateLimitStore {
  constructor(
    private readonly counters: RateLimitCounters,
    private readonly prefix: string,
  ) {}

  incr(key: string, callback: Callback, timeWindow: number, max: number): void {
    this.counters.hit(this.prefix + key, timeWindow, max).then((state) => callback(null, state), (error: Error) => callback(error));
  }

  read(key: string, callback: Callback): void {
    this.counters.read(this.prefix + key).then((state) => callback(null, state), (error: Error) => callback(error));
  }

  child(routeOptions: unknown): DatabaseRateLimitStore {
    // The plugin hands the route as `routeInfo` (typed otherwise); createRateLimit(options) hands none.
    const route = (routeOptions as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo ?? {};
    return new DatabaseRateLimitStore(this.counters, `${this.prefix}${String(route.method ?? '')} ${String(route.url ?? '')}|`);
  }
}

/** The `store` option of one rate limit registration: its counters are prefixed `<limit>:`. */
export function databaseRateLimitStore(counters: RateLimitCounters, limit: string): FastifyRateLimitStoreCtor {
  return class extends DatabaseRateLimitStore {
    constructor() {
      super(counters, `${limit}:`);
    }
  };
}
