/**
 * The owner's kill switch, "Pause all agents": every active agent of the owner is suspended in
 * one transaction and marked paused (pausedAt), so "Resume" (resume-all-agents.ts) can bring
 * back exactly these and not the agents the owner suspended by hand. One audit entry per agent.
 * After commit, each paused agent's outstanding x402 authorisations are cancelled, as a single
 * suspend does. Pulling the switch again pauses only agents that became active since.
 */
import type { PauseAllAgentsResult } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { forgetAgentEvmAccount } from '../identity/agent-keys';
import { forgetSigningKeys } from '../identity/request-signing-keys';
import { cancelAgentAuthorizations, type CancelAuthorizationsDeps } from './cancel-agent-authorizations';
import { assertUuids } from './owned-agent';
import { recordAgentChange } from './record-agent-change';

export async function pauseAllAgents(deps: CancelAuthorizationsDeps, ownerId: string): Promise<PauseAllAgentsResult> {
  assertUuids(ownerId);
  const pausedIds = await withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const at = new Date();
    // Locked in id order, as every writer of several agent rows should, so two switches (or a
    // switch and a single change) queue instead of deadlocking.
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM agents
       WHERE owner_id = ${ownerId}::uuid AND status = 'active'
       ORDER BY id
         FOR UPDATE`;
    const ids = rows.map((row) => row.id);
    if (ids.length === 0) return ids;
    await tx.agent.updateMany({ where: { id: { in: ids }, status: 'active' }, data: { status: 'suspended', pausedAt: at } });
    for (const id of ids) await recordAgentChange(tx, ownerId, id, 'kill_switch_paused', { status: 'suspended', paused_at: at.toISOString() });
    return ids;
  });
  for (const agentId of pausedIds) {
    forgetAgentEvmAccount(deps.masterKey, agentId);
    forgetSigningKeys(agentId);
  }
  for (const agentId of await agentsWithPendingAuthorizations(deps, pausedIds)) await cancelAgentAuthorizations(deps, agentId);
  return { paused: pausedIds.length };
}

/** Of `agentIds`, those with an x402 authorisation no seller has redeemed yet: one query, however many agents. */
async function agentsWithPendingAuthorizations(deps: Pick<CancelAuthorizationsDeps, 'db'>, agentIds: string[]): Promise<string[]> {
  if (agentIds.length === 0) return [];
  const pending = await deps.db.prisma.paymentIntent.findMany({
    where: { agentId: { in: agentIds }, railOperation: { is: { rail: 'x402_base', status: 'pending' } } },
    distinct: ['agentId'],
    select: { agentId: true },
  });
  return pending.map((row) => row.agentId);
}
