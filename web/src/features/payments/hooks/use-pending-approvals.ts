// What waits for the owner's decision: payments in pending_approval and budget requests of their
// agents (payment sessions in `requested`). The top bar's badge counts both; kept live by the
// console layout's stream ('intent' and 'session' messages mark the counts stale).
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../../shared/trpc';

export interface PendingDecisions {
  payments: number;
  budgetRequests: number;
  total: number;
}

export function usePendingDecisions(): PendingDecisions | undefined {
  const trpc = useTRPC();
  const payments = useQuery(trpc.intents.pendingCount.queryOptions()).data?.count;
  const budgetRequests = useQuery(trpc.paymentSessions.pendingCount.queryOptions()).data?.count;
  if (payments === undefined && budgetRequests === undefined) return undefined;
  return { payments: payments ?? 0, budgetRequests: budgetRequests ?? 0, total: (payments ?? 0) + (budgetRequests ?? 0) };
}

/** How many decisions wait, in all: the top bar's badge. */
export function usePendingApprovals(): number | undefined {
  return usePendingDecisions()?.total;
}
