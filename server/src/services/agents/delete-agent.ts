/**
 * Deletes an agent: the row stays (its transactions and the audit trail refer to it) with
 * status deleted, which hides it from its owner, deactivates its DID and revokes its
 * credential in the status list; its key pairs and API keys are revoked.
 */
import type { DeleteAgentResult } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { lockOwnedAgent, type AgentServiceDeps } from './owned-agent';

export async function deleteAgent(deps: Pick<AgentServiceDeps, 'db'>, ownerId: string, agentId: string, now = new Date()): Promise<DeleteAgentResult> {
  return deps.db.prisma.$transaction(async (tx: TransactionClient) => {
    const agent = await lockOwnedAgent(tx, ownerId, agentId);
    const row = await tx.agent.update({ where: { id: agent.id }, data: { status: 'deleted' }, select: { id: true, did: true } });
    await tx.agentKey.updateMany({ where: { agentId: agent.id, revokedAt: null }, data: { revokedAt: now } });
    await tx.agentApiKey.updateMany({ where: { agentId: agent.id, revokedAt: null }, data: { revokedAt: now } });
    return { id: row.id, did: row.did, status: 'deleted' as const };
  });
}
