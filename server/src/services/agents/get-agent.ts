/** One of the owner's agents with its wallet and spending rules (the connect page's read). */
import type { AgentView } from '@purser/core';
import { assertUuids, agentNotFound, ownedAgentWhere, type AgentServiceDeps } from './owned-agent';
import { agentSelect, serializeAgent } from './serialize-agent';

export async function getAgent(deps: Pick<AgentServiceDeps, 'db'>, ownerId: string, agentId: string): Promise<AgentView> {
  assertUuids(ownerId, agentId);
  const agent = await deps.db.prisma.agent.findFirst({ where: ownedAgentWhere(ownerId, agentId), select: agentSelect });
  if (!agent) throw agentNotFound();
  return serializeAgent(agent);
}
