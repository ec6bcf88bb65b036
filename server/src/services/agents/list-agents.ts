/** The owner's agents, newest first, with nested wallet and spending rules (spec section 7). */
import type { AgentView } from '@purser/core';
import type { AgentServiceDeps } from './owned-agent';
import { agentSelect, serializeAgent } from './serialize-agent';

export async function listAgents(deps: Pick<AgentServiceDeps, 'db'>, ownerId: string): Promise<AgentView[]> {
  const agents = await deps.db.prisma.agent.findMany({
    where: { ownerId, status: { not: 'deleted' } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: agentSelect,
  });
  return agents.map(serializeAgent);
}
