/**
 * When a failed attempt is sent again, and after how long. Pure functions of the attempt, the
 * answer and the clock, so the timing is tested without waiting.
 *
 * - 429 is always retried: the rate limit refuses a call before it runs.
 * - 502, 503 and 504 are retried only when sending the call twice is harmless: a GET or DELETE,
 *   a POST that only reads, or a call with an idempotency key. A gateway may give up on a call
 *   the server still completes, and creating an agent or an API key twice is not harmless.
 * - Other 4xx and 5xx answers are final.
 * - Network failures and timeouts follow the 502 rule, for the same reason.
 */

export interface RetryOptions {
  /** Attempts in all, the first included. 1 turns retries off. Default 3. */
  maxAttempts: number;
  /** Back-off before the first retry; doubled before each next one. Default 200 ms. */
  initialDelayMs: number;
  /** The longest back-off. Default 5 s. */
  maxDelayMs: number;
  /**
   * Up to this fraction of a back-off is added at random, so clients refused together do not
   * come back together. Default 0.2; 0 makes back-offs exact.
   */
  jitter: number;
  /**
   * A `Retry-After` longer than this is not waited for: the call fails with the 429 or 503,
   * whose `retryAfterMs` says when to come back. Default 60 s.
   */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: Readonly<RetryOptions> = {
  maxAttempts: 3,
  initialDelayMs: 200,
  maxDelayMs: 5_000,
  jitter: 0.2,
  maxRetryAfterMs: 60_000,
};

const RETRIED_WHEN_REPEATABLE = new Set([502, 503, 504]);

export function isRetryableStatus(status: number, repeatable: boolean): boolean {
  return status === 429 || (repeatable && RETRIED_WHEN_REPEATABLE.has(status));
}

/** Exponential back-off before retry number `retry` (1 for the first retry). */
export function backoffDelayMs(retry: number, options: RetryOptions, random: () => number = Math.random): number {
  const exponential = options.initialDelayMs * 2 ** Math.max(0, retry - 1);
  const withJitter = exponential * (1 + options.jitter * random());
  return Math.round(Math.min(options.maxDelayMs, withJitter));
}

/**
 * `Retry-After` in milliseconds: whole seconds, or an HTTP date (a date in the past is 0).
 * Undefined when the header is absent or unreadable.
 */
export function parseRetryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date always names the weekday or month in letters; a bare number was handled above.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * How long to wait before the next attempt, or undefined to stop. `retryAfterMs` (from the
 * answer) wins over the back-off; one beyond `maxRetryAfterMs` stops the retries.
 */
export function nextDelayMs(
  attempt: number,
  options: RetryOptions,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (attempt >= options.maxAttempts) return undefined;
  if (retryAfterMs !== undefined) return retryAfterMs <= options.maxRetryAfterMs ? retryAfterMs : undefined;
  return backoffDelayMs(attempt, options, random);
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
