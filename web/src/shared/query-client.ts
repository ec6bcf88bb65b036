// TanStack Query defaults for data fetching: 3 retries, back-off from 1 s doubling up
// to 30 s, unused cache entries dropped after 5 minutes.
import { QueryClient } from '@tanstack/react-query';

export const QUERY_MAX_RETRIES = 3;
const RETRY_BASE_DELAY_MS = 1_000;
const RETRY_MAX_DELAY_MS = 30_000;
const CACHE_GC_TIME_MS = 5 * 60_000;

/** Delay before retry number `failureCount + 1`: 1 s, 2 s, 4 s, ... capped at 30 s. */
export function queryRetryDelay(failureCount: number): number {
  return Math.min(RETRY_BASE_DELAY_MS * 2 ** failureCount, RETRY_MAX_DELAY_MS);
}

/**
 * Retry up to three times, except answers the server gave on purpose (HTTP 4xx such as
 * UNAUTHORIZED or NOT_FOUND): asking again cannot change them and only delays the page.
 */
export function shouldRetryQuery(failureCount: number, error: unknown): boolean {
  if (failureCount >= QUERY_MAX_RETRIES) return false;
  const status = httpStatusOf(error);
  return status === undefined || status < 400 || status >= 500;
}

// tRPC client errors carry the HTTP status in `data.httpStatus`.
function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('data' in error)) return undefined;
  const data = (error as { data?: { httpStatus?: unknown } }).data;
  return typeof data?.httpStatus === 'number' ? data.httpStatus : undefined;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetryQuery,
        retryDelay: queryRetryDelay,
        gcTime: CACHE_GC_TIME_MS,
      },
    },
  });
}
