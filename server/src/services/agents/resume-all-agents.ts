/**
 * "Resume", the other half of the kill switch: reactivates exactly the agents "Pause all agents"
 * suspended (pausedAt set, still suspended), never one the owner suspended by hand, in one
 * transaction with one audit entry per agent. Each gets its credential back the way a single
 * reactivation does (reactivate-agent.ts).
 */
import type { ResumeAllAgentsResult } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { assertUuids, type AgentServiceDeps } from './owned-agent';
import { reactivateLockedAgent } from './reactivate-agent';

export async function resumeAllAgents(deps: AgentServiceDeps, ownerId: string): Promise<ResumeAllAgentsResult> {
  assertUuids(ownerId);
  return withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM agents
       WHERE owner_id = ${ownerId}::uuid AND status = 'suspended' AND paused_at IS NOT NULL
       ORDER BY id
         FOR UPDATE`;
    for (const { id } of rows) await reactivateLockedAgent(tx, deps, ownerId, id, 'kill_switch_resumed');
    return { resumed: rows.length };
  });
}
