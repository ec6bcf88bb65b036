/**
 * Reactivates a suspended agent: its API key works again and the credential it already holds
 * verifies again (same status-list slot). Only when its limits changed while it was suspended
 * (the credential then states agent_status "suspended") is a fresh credential issued.
 * An agent the kill switch paused is no longer paused once reactivated by hand.
 */
import { agentCredentialView, type AgentView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { lockOwnedAgent, reissueAgentCredential, type AgentServiceDeps } from './owned-agent';
import { recordAgentChange, type AgentAuditAction } from './record-agent-change';
import { agentSelect, serializeAgent } from './serialize-agent';

export async function reactivateAgent(deps: AgentServiceDeps, ownerId: string, agentId: string): Promise<AgentView> {
  return withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const agent = await lockOwnedAgent(tx, ownerId, agentId);
    if (agent.status === 'suspended') await reactivateLockedAgent(tx, deps, ownerId, agent.id, 'reactivated');
    return serializeAgent(await tx.agent.findUniqueOrThrow({ where: { id: agent.id }, select: agentSelect }));
  });
}

/**
 * Reactivates a suspended agent whose row the caller has locked, clears its kill-switch mark
 * and appends the audit entry `action` names; resume-all-agents.ts shares it.
 */
export async function reactivateLockedAgent(
  tx: TransactionClient,
  deps: Pick<AgentServiceDeps, 'masterKey' | 'publicUrl'>,
  ownerId: string,
  agentId: string,
  action: Extract<AgentAuditAction, 'reactivated' | 'kill_switch_resumed'>,
): Promise<void> {
  const updated = await tx.agent.update({ where: { id: agentId }, data: { status: 'active', pausedAt: null }, select: { verifiableCredential: true } });
  const credential = agentCredentialView.safeParse(updated.verifiableCredential);
  if (!credential.success || credential.data.claims.agent_status !== 'active') {
    await reissueAgentCredential(tx, deps, agentId, { newStatusIndex: true });
  }
  await recordAgentChange(tx, ownerId, agentId, action, { status: 'active' });
}
