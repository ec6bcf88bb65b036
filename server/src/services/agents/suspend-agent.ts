/**
 * Suspends an agent: every agent call then answers 403 and its credential reads as revoked
 * in the status list. Suspending a suspended agent changes nothing.
 */
import type { AgentView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { lockOwnedAgent, type AgentServiceDeps } from './owned-agent';
import { agentSelect, serializeAgent } from './serialize-agent';

export async function suspendAgent(deps: Pick<AgentServiceDeps, 'db'>, ownerId: string, agentId: string): Promise<AgentView> {
  return deps.db.prisma.$transaction(async (tx: TransactionClient) => {
    const agent = await lockOwnedAgent(tx, ownerId, agentId);
    const row =
      agent.status === 'suspended'
        ? await tx.agent.findUniqueOrThrow({ where: { id: agent.id }, select: agentSelect })
        : await tx.agent.update({ where: { id: agent.id }, data: { status: 'suspended' }, select: agentSelect });
    return serializeAgent(row);
  });
}
