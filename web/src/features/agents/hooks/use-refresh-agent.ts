// After the owner changes an agent on its page: every read about that agent, and the
// dashboard's agent list, read again. (The console's live stream does the same for changes
// made elsewhere; this makes the page's own change show without waiting for it.)
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTRPC } from '../../../shared/trpc';

export function useRefreshAgent(agentId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.agents.get.queryKey({ agent_id: agentId }) }),
        queryClient.invalidateQueries({ queryKey: trpc.agents.list.queryKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.agents.kyaVerifications.queryKey({ agent_id: agentId }) }),
        queryClient.invalidateQueries({ queryKey: trpc.agents.spendHistory.queryKey() }),
      ]),
    [trpc, queryClient, agentId],
  );
}
