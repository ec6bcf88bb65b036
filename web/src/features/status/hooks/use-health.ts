// The product's live health report (tRPC `health.get`, public), read again every 30 seconds.
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../../shared/trpc';

export const HEALTH_REFRESH_MS = 30_000;

export function useHealth() {
  const trpc = useTRPC();
  return useQuery(
    trpc.health.get.queryOptions(undefined, {
      refetchInterval: HEALTH_REFRESH_MS,
      // One quick retry: a status page must say it cannot reach the platform, not wait 7 s to.
      retry: 1,
      retryDelay: 1_000,
    }),
  );
}
