// The owner's agents (shared with the overview's cache) and their names by id, for the
// payments tables and the agent filter.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTRPC } from '../../../shared/trpc';

export function useAgents() {
  const trpc = useTRPC();
  const query = useQuery(trpc.agents.list.queryOptions());
  const names = useMemo(() => new Map((query.data ?? []).map((agent) => [agent.id, agent.name])), [query.data]);
  return { agents: query.data ?? [], names };
}
