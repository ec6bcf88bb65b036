/**
 * Suspends an agent: every agent call then answers 403 and its credential reads as revoked
 * in the status list, and the x402 payments it signed but no seller redeemed yet are cancelled
 * on chain. Suspending a suspended agent changes nothing, except that an agent the kill switch
 * paused stops counting as paused (pausedAt), so "Resume" leaves it suspended.
 */
import type { AgentView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { cancelAgentAuthorizations, type CancelAuthorizationsDeps } from './cancel-agent-authorizations';
import { lockOwnedAgent, type AgentServiceDeps } from './owned-agent';
import { recordAgentChange } from './record-agent-change';
import { agentSelect, serializeAgent } from './serialize-agent';

export async function suspendAgent(deps: Pick<AgentServiceDeps, 'db'> & CancelAuthorizationsDeps, ownerId: string, agentId: string): Promise<AgentView> {
  const view = await withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const agent = await lockOwnedAgent(tx, ownerId, agentId);
    if (agent.status === 'suspended') {
      // Suspended by the kill switch and now by hand: the owner's own word wins, so "Resume"
      // leaves it suspended.
      const unpaused = await tx.agent.updateMany({ where: { id: agent.id, pausedAt: { not: null } }, data: { pausedAt: null } });
      if (unpaused.count > 0) await recordAgentChange(tx, ownerId, agent.id, 'suspended', { status: 'suspended', kill_switch: false });
      return serializeAgent(await tx.agent.findUniqueOrThrow({ where: { id: agent.id }, select: agentSelect }));
    }
    const row = await tx.agent.update({ where: { id: agent.id }, data: { status: 'suspended' }, select: agentSelect });
    await recordAgentChange(tx, ownerId, agent.id, 'suspended', { status: 'suspended' });
    return serializeAgent(row);
  });
  await cancelAgentAuthorizations(deps, view.id);
  return view;
}
