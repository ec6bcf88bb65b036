// How many of the owner's payments wait for approval: the top bar's badge. Kept live by the
// console layout's stream (every intent message marks it stale).
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../../shared/trpc';

export function usePendingApprovals(): number | undefined {
  const trpc = useTRPC();
  return useQuery(trpc.intents.pendingCount.queryOptions()).data?.count;
}
