/**
 * Deletes an agent: the row stays (its transactions and the audit trail refer to it) with
 * status deleted, which hides it from its owner, deactivates its DID and revokes its
 * credential in the status list; its key pairs and API keys are revoked, and the x402 payments
 * it signed but no seller redeemed yet are cancelled on chain.
 */
import type { DeleteAgentResult } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { cancelAgentAuthorizations, type CancelAuthorizationsDeps } from './cancel-agent-authorizations';
import { lockOwnedAgent, type AgentServiceDeps } from './owned-agent';
import { recordAgentChange } from './record-agent-change';

export async function deleteAgent(deps: Pick<AgentServiceDeps, 'db'> & CancelAuthorizationsDeps, ownerId: string, agentId: string, now = new Date()): Promise<DeleteAgentResult> {
  const result = await withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const agent = await lockOwnedAgent(tx, ownerId, agentId);
    const row = await tx.agent.update({ where: { id: agent.id }, data: { status: 'deleted' }, select: { id: true, did: true } });
    await tx.agentKey.updateMany({ where: { agentId: agent.id, revokedAt: null }, data: { revokedAt: now } });
    await tx.agentApiKey.updateMany({ where: { agentId: agent.id, revokedAt: null }, data: { revokedAt: now } });
    await recordAgentChange(tx, ownerId, agent.id, 'deleted', { status: 'deleted', previous_status: agent.status });
    return { id: row.id, did: row.did, status: 'deleted' as const };
  });
  await cancelAgentAuthorizations(deps, result.id);
  return result;
}
