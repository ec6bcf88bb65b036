/** An agent's transactions, newest first (the transactions page reads them all; MCP the latest 50). */
import type { AgentTransactionView } from '@purser/core';
import { agentNotFound, assertUuids, ownedAgentWhere, type AgentServiceDeps } from './owned-agent';
import { agentTransactionSelect, serializeAgentTransaction } from './serialize-agent';

export async function listAgentTransactions(
  deps: Pick<AgentServiceDeps, 'db'>,
  ownerId: string,
  agentId: string,
  options: { limit?: number } = {},
): Promise<AgentTransactionView[]> {
  assertUuids(ownerId, agentId);
  const agent = await deps.db.prisma.agent.findFirst({ where: ownedAgentWhere(ownerId, agentId), select: { id: true } });
  if (!agent) throw agentNotFound();
  const rows = await deps.db.prisma.agentTransaction.findMany({
    where: { agentId: agent.id },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    ...(options.limit === undefined ? {} : { take: options.limit }),
    select: agentTransactionSelect,
  });
  return rows.map(serializeAgentTransaction);
}
