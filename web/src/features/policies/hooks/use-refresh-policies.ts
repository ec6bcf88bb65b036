// After a policy changes: every policy read (the list, what shadow policies would have blocked).
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTRPC } from '../../../shared/trpc';

export function useRefreshPolicies() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: trpc.policies.pathKey() }), [trpc, queryClient]);
}
