/**
 * The Redis client of the rate limits (REDIS_URL), opened by the runtime and closed on stop.
 * Redis only counts: the rate limits let requests through while it cannot answer (see
 * rateLimitStoreOptions), so the client is set to fail fast rather than make requests wait,
 * and says so in the log while it lasts.
 */
import { Redis } from 'ioredis';
import type { Logger } from '../logger';

/** A healthy Redis answers in well under a millisecond; past this, the request goes on without it. */
const COMMAND_TIMEOUT_MS = 1_000;
/** While Redis stays unreachable, the warning is repeated this often, not at every reconnect attempt. */
const WARN_EVERY_MS = 60_000;

export function openRateLimitRedis(url: string, logger: Logger): Redis {
  const client = new Redis(url, {
    // Disconnected, a command fails at once instead of waiting in a queue for Redis to return.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
  });
  let failingSince: number | undefined;
  let warnedAt = -Infinity;
  // ioredis reconnects by itself (backing off to one attempt every 2 s) and reports each failure here.
  client.on('error', (error: Error) => {
    const now = Date.now();
    failingSince ??= now;
    if (now - warnedAt < WARN_EVERY_MS) return;
    warnedAt = now;
    logger.warn({ err: error, failingForMs: now - failingSince }, 'Redis is unreachable: rate limits are not enforced until it answers again');
  });
  client.on('ready', () => {
    if (failingSince !== undefined) logger.info({ failedForMs: Date.now() - failingSince }, 'Redis answers again: rate limits are enforced');
    failingSince = undefined;
    warnedAt = -Infinity;
  });
  return client;
}

/** Closes the client: politely when Redis answers, at once when it does not. */
export async function closeRateLimitRedis(client: Redis): Promise<void> {
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}
