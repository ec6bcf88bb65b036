// The dashboard's three reads (wallet, agents, recent transactions), kept live: each
// realtime stream re-reads its list when the server says it changed, whoever changed it.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSubscription } from '@trpc/tanstack-react-query';
import { useEffect } from 'react';
import { useTRPC } from '../../../shared/trpc';

export function useDashboardData() {
  const trpc = useTRPC();
  const wallet = useQuery(trpc.wallet.get.queryOptions());
  const agents = useQuery(trpc.agents.list.queryOptions());
  const transactions = useQuery(trpc.transactions.recent.queryOptions());

  useLiveUpdates();
  // Spec section 8: read failures are only logged; the page shows what it has.
  useLogFailure('wallet', wallet.error);
  useLogFailure('agents', agents.error);
  useLogFailure('transactions', transactions.error);

  return {
    loading: wallet.isPending || agents.isPending || transactions.isPending,
    wallet: wallet.data ?? null,
    agents: agents.data ?? [],
    transactions: transactions.data ?? [],
  };
}

/** After a top-up, a funding or a new agent: balances, agents and transactions reload. */
export function useReloadDashboard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.wallet.get.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.agents.list.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.transactions.recent.queryKey() }),
    ]);
}

// One stream for the three lists (a browser allows six connections per host: a stream per list
// would let two open dashboards stall every other request). A 'sync' message means the stream
// is (re)connected: anything missed while it was down is picked up by reading everything again.
function useLiveUpdates() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const keys = {
    wallet: trpc.wallet.get.queryKey(),
    agents: trpc.agents.list.queryKey(),
    transactions: trpc.transactions.recent.queryKey(),
  };
  useSubscription(
    trpc.realtime.dashboardChanges.subscriptionOptions(undefined, {
      onData: (message) => {
        const stale = message.type === 'sync' ? Object.values(keys) : [keys[message.what]];
        for (const queryKey of stale) void queryClient.invalidateQueries({ queryKey });
      },
      onError: (error) => console.error('Dashboard live updates failed', error),
    }),
  );
}

function useLogFailure(what: string, error: unknown) {
  useEffect(() => {
    if (error) console.error(`Failed to load ${what}`, error);
  }, [what, error]);
}
