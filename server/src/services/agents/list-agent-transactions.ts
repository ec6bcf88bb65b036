/** An agent's transactions, newest first (the transactions page reads them all; MCP the latest 50). */
import { AGENT_TRANSACTIONS_CURSOR_MESSAGE, type AgentTransactionsPage, type AgentTransactionView } from '@purser/core';
import { decodeIntentCursor, encodeIntentCursor } from '../intents/intent-cursor';
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

/**
 * A page of an agent's transactions, newest first, and the cursor of the next (older) one: the
 * rows strictly below the last one's (createdAt, id), so a page never shifts when new
 * transactions arrive. The agent API's GET /transactions.
 */
export async function listAgentTransactionPage(
  deps: Pick<AgentServiceDeps, 'db'>,
  ownerId: string,
  agentId: string,
  { limit, cursor }: { limit: number; cursor?: string | undefined },
): Promise<AgentTransactionsPage> {
  assertUuids(ownerId, agentId);
  const after = cursor === undefined ? undefined : decodeIntentCursor(cursor, AGENT_TRANSACTIONS_CURSOR_MESSAGE);
  const agent = await deps.db.prisma.agent.findFirst({ where: ownedAgentWhere(ownerId, agentId), select: { id: true } });
  if (!agent) throw agentNotFound();
  const rows = await deps.db.prisma.agentTransaction.findMany({
    where: {
      agentId: agent.id,
      ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
    select: agentTransactionSelect,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    transactions: page.map(serializeAgentTransaction),
    next_cursor: rows.length > limit && last ? encodeIntentCursor({ createdAt: last.createdAt, id: last.id }) : null,
  };
}
