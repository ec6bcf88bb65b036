import { describe, expect, it } from 'vitest';
import { createQueryClient, queryRetryDelay, shouldRetryQuery } from './query-client';

describe('query retry policy', () => {
  it('backs off from 1 s, doubling, capped at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(queryRetryDelay)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
  });

  it('retries a failed fetch three times and then gives up', () => {
    const error = new Error('network');
    expect([0, 1, 2, 3].map((count) => shouldRetryQuery(count, error))).toEqual([true, true, true, false]);
  });

  it('retries server errors but not client errors', () => {
    expect(shouldRetryQuery(0, { data: { httpStatus: 503 } })).toBe(true);
    expect(shouldRetryQuery(0, { data: { httpStatus: 401 } })).toBe(false);
    expect(shouldRetryQuery(0, { data: { httpStatus: 404 } })).toBe(false);
  });

  it('drops unused cache entries after five minutes', () => {
    expect(createQueryClient().getDefaultOptions().queries?.gcTime).toBe(300_000);
  });
});
