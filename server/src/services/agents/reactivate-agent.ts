/**
 * Reactivates a suspended agent: its API key works again and the credential it already holds
 * verifies again (same status-list slot). Only when its limits changed while it was suspended
 * (the credential then states agent_status "suspended") is a fresh credential issued.
 */
import { agentCredentialView, type AgentView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { lockOwnedAgent, reissueAgentCredential, type AgentServiceDeps } from './owned-agent';
import { recordAgentChange } from './record-agent-change';
import { agentSelect, serializeAgent } from './serialize-agent';

export async function reactivateAgent(deps: AgentServiceDeps, ownerId: string, agentId: string): Promise<AgentView> {
  return withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const agent = await lockOwnedAgent(tx, ownerId, agentId);
    if (agent.status === 'suspended') {
      const updated = await tx.agent.update({ where: { id: agent.id }, data: { status: 'active' }, select: { verifiableCredential: true } });
      const credential = agentCredentialView.safeParse(updated.verifiableCredential);
      if (!credential.success || credential.data.claims.agent_status !== 'active') {
        await reissueAgentCredential(tx, deps, agent.id, { newStatusIndex: true });
      }
      await recordAgentChange(tx, ownerId, agent.id, 'reactivated', { status: 'active' });
    }
    return serializeAgent(await tx.agent.findUniqueOrThrow({ where: { id: agent.id }, select: agentSelect }));
  });
}
