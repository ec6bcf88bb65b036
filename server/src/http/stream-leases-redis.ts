/**
 * Stream leases (services/rate-limits/stream-leases.ts) in the rate limits' Redis: one sorted set
 * per key, a member per lease scored by its expiry, on Redis's own clock (the clock all servers
 * share). Counting the live leases and adding one is a single script, so racing servers cannot
 * both take the last place. As with the rate limits, a Redis that cannot answer lets the stream
 * open uncounted (rate-limit-store.ts says why), and the log says so.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../logger';
import type { StreamLeases } from '../services/rate-limits/stream-leases';

/** Redis's time in milliseconds, inside a script. */
const NOW_MS = "local t = redis.call('TIME') local now = t[1] * 1000 + math.floor(t[2] / 1000)";

/** KEYS[1] the set; ARGV: max, lease ms, lease id. Answers 1 when the lease was taken. */
const ACQUIRE = `${NOW_MS}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/** KEYS[1] the set; ARGV: lease ms, lease id. Extends the lease only if it is still there. */
const RENEW = `${NOW_MS}
if redis.call('ZADD', KEYS[1], 'XX', 'CH', now + tonumber(ARGV[1]), ARGV[2]) == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return 1`;

export function redisStreamLeases(client: Redis, keyPrefix: string, logger: Logger): StreamLeases {
  const setOf = (key: string) => `${keyPrefix}${key}`;
  return {
    async acquire(key, max, leaseMs) {
      const leaseId = randomUUID();
      try {
        const taken = await client.eval(ACQUIRE, 1, setOf(key), max, leaseMs, leaseId);
        return taken === 1 ? leaseId : null;
      } catch (error) {
        logger.warn({ err: error }, 'Redis could not count open streams: this one opens uncounted');
        return leaseId;
      }
    },
    async renew(key, leaseId, leaseMs) {
      await client.eval(RENEW, 1, setOf(key), leaseMs, leaseId);
    },
    async release(key, leaseId) {
      await client.zrem(setOf(key), leaseId);
    },
  };
}
