/**
 * Deletes a policy: its current version is switched off and marked superseded, with no newer
 * version, so it applies to nothing from now on. Rows are kept for the audit trail.
 */
import type { PolicyView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import type { AgentServiceDeps } from '../agents/owned-agent';
import { assertChangeable, lockOwnedPolicy, policySelect, recordPolicyChange, serializePolicy } from './owned-policy';

export async function deletePolicy(deps: Pick<AgentServiceDeps, 'db'>, ownerId: string, policyId: string): Promise<PolicyView> {
  return withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const current = await lockOwnedPolicy(tx, ownerId, policyId);
    await assertChangeable(tx, current);
    const row = await tx.policy.update({ where: { id: current.id }, data: { enabled: false, supersededAt: new Date() }, select: policySelect });
    await recordPolicyChange(tx, ownerId, row.id, 'deleted', { name: row.name, version: row.version, agent_id: row.agentId });
    return serializePolicy(row);
  });
}
