// The owner console's one live stream (realtime.consoleChanges), opened by its layout for every
// page under /dashboard: a browser allows six HTTP/1.1 connections per host, so pages never
// open their own (the payment page's intentProgress is the one exception). Each message marks
// the queries it touches stale; TanStack Query refetches those a page shows and leaves the rest
// until they are next used. 'sync' means the stream (re)connected and anything may have been
// missed: everything is read again.
import { useQueryClient, type InvalidateQueryFilters } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { useTRPC } from '../shared/trpc';

export function useConsoleChanges(): void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();

  useSubscription(
    trpc.realtime.consoleChanges.subscriptionOptions(undefined, {
      onData: (message) => {
        let stale: InvalidateQueryFilters[];
        switch (message.type) {
          case 'sync':
            stale = [{}];
            break;
          case 'intent':
            stale = [
              { queryKey: trpc.intents.list.pathKey() },
              { queryKey: trpc.intents.pendingCount.queryKey() },
              { queryKey: trpc.intents.detail.queryKey({ intentId: message.intentId }) },
              { queryKey: trpc.intents.get.queryKey({ intentId: message.intentId }) },
              // A payment naming a session moves what the session spent and has left, and may
              // close it: its session is not announced on its own.
              { queryKey: trpc.paymentSessions.list.pathKey() },
              { queryKey: trpc.paymentSessions.get.pathKey() },
              // What a payment moves: the agent's spend chart, its transactions, a shadow
              // policy's would-have-blocked list.
              { queryKey: trpc.agents.spendHistory.pathKey() },
              { queryKey: trpc.agents.transactions.pathKey() },
              { queryKey: trpc.policies.wouldHaveBlocked.pathKey() },
              // Each step of a payment writes its audit entry and may emit webhook deliveries.
              { queryKey: trpc.audit.list.pathKey() },
              { queryKey: trpc.webhooks.deliveries.pathKey() },
            ];
            break;
          case 'agent':
            stale = [
              { queryKey: trpc.agents.list.queryKey() },
              { queryKey: trpc.agents.get.queryKey({ agent_id: message.agentId }) },
              { queryKey: trpc.agents.identity.queryKey({ agent_id: message.agentId }) },
              { queryKey: trpc.agents.killSwitch.queryKey() },
              { queryKey: trpc.agents.kyaVerifications.pathKey() },
              { queryKey: trpc.audit.list.pathKey() },
            ];
            break;
          case 'session':
            stale = [
              { queryKey: trpc.paymentSessions.list.pathKey() },
              { queryKey: trpc.paymentSessions.get.queryKey({ sessionId: message.sessionId }) },
              { queryKey: trpc.paymentSessions.pendingCount.queryKey() },
              { queryKey: trpc.audit.list.pathKey() },
              { queryKey: trpc.webhooks.deliveries.pathKey() },
            ];
            break;
          case 'budgetAlert':
            stale = [
              { queryKey: trpc.budgetAlerts.list.pathKey() },
              { queryKey: trpc.agents.spendHistory.pathKey() },
              { queryKey: trpc.webhooks.deliveries.pathKey() },
            ];
            break;
        }
        for (const filters of stale) void queryClient.invalidateQueries(filters);
      },
      onError: (error) => console.error('Console live updates failed', error),
    }),
  );
}
