import { describe, expect, it } from 'vitest';
import { backoffDelayMs, DEFAULT_RETRY, isRetryableStatus, nextDelayMs, parseRetryAfterMs, sleep } from './retry';

const exact = { ...DEFAULT_RETRY, jitter: 0 };

describe('back-off', () => {
  it('starts at 200 ms and doubles with each retry up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((retry) => backoffDelayMs(retry, exact))).toEqual([200, 400, 800, 1600, 3200, 5000, 5000]);
    expect([1, 2, 3].map((retry) => backoffDelayMs(retry, { ...exact, initialDelayMs: 50, maxDelayMs: 120 }))).toEqual([50, 100, 120]);
  });

  it('adds at most the jitter fraction on top, and never goes past the cap', () => {
    expect(backoffDelayMs(1, DEFAULT_RETRY, () => 0)).toBe(200);
    expect(backoffDelayMs(1, DEFAULT_RETRY, () => 0.5)).toBe(220);
    expect(backoffDelayMs(1, DEFAULT_RETRY, () => 0.999999)).toBe(240);
    expect(backoffDelayMs(6, DEFAULT_RETRY, () => 0.999999)).toBe(5000);
  });

  it('stops once the attempts are used up', () => {
    expect(nextDelayMs(1, exact, undefined)).toBe(200);
    expect(nextDelayMs(2, exact, undefined)).toBe(400);
    expect(nextDelayMs(3, exact, undefined)).toBeUndefined();
    expect(nextDelayMs(1, { ...exact, maxAttempts: 1 }, undefined)).toBeUndefined();
  });

  it('waits what Retry-After asks instead of the back-off, unless it is longer than maxRetryAfterMs', () => {
    expect(nextDelayMs(1, exact, 3000)).toBe(3000);
    expect(nextDelayMs(1, exact, 0)).toBe(0);
    expect(nextDelayMs(1, exact, 60_000)).toBe(60_000);
    expect(nextDelayMs(1, exact, 60_001)).toBeUndefined();
    expect(nextDelayMs(3, exact, 1000)).toBeUndefined();
  });
});

describe('Retry-After', () => {
  const now = Date.parse('2026-11-23T10:00:00Z');

  it('reads whole seconds', () => {
    expect(parseRetryAfterMs('7', now)).toBe(7000);
    expect(parseRetryAfterMs(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date against the clock, a past date as no wait', () => {
    expect(parseRetryAfterMs('Mon, 23 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfterMs('Mon, 23 Nov 2026 09:59:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfterMs(null, now)).toBeUndefined();
    expect(parseRetryAfterMs('-1', now)).toBeUndefined();
    expect(parseRetryAfterMs('1.5', now)).toBeUndefined();
    expect(parseRetryAfterMs('soon', now)).toBeUndefined();
  });
});

describe('which answers are retried', () => {
  it('retries 429 always, and 502, 503 and 504 only for calls that are safe to repeat', () => {
    expect(isRetryableStatus(429, false)).toBe(true);
    for (const status of [502, 503, 504]) {
      expect(isRetryableStatus(status, true)).toBe(true);
      expect(isRetryableStatus(status, false)).toBe(false);
    }
    for (const status of [400, 401, 403, 404, 409, 413, 422, 500, 501]) expect(isRetryableStatus(status, true)).toBe(false);
  });
});

describe('sleep', () => {
  it('rejects with the signal reason when aborted while waiting', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });
});
