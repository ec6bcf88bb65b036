/**
 * Changes an agent's spending limits and re-issues its credential, which states them. The new
 * credential takes a fresh slot in the status list, so the one stating the old limits stops
 * verifying.
 */
import type { AgentView, UpdateSpendingRulesInput } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { lockOwnedAgent, reissueAgentCredential, type AgentServiceDeps } from './owned-agent';
import { recordAgentChange, spendingRulesAuditData } from './record-agent-change';
import { agentSelect, serializeAgent } from './serialize-agent';

export async function updateSpendingRules(deps: AgentServiceDeps, ownerId: string, input: UpdateSpendingRulesInput): Promise<AgentView> {
  return withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const agent = await lockOwnedAgent(tx, ownerId, input.agent_id);
    await tx.spendingRules.update({
      where: { agentId: agent.id },
      data: {
        maxTransactionAmount: input.max_transaction_amount,
        maxDailyLimit: input.max_daily_limit,
        approvalThreshold: input.approval_threshold,
      },
      select: { id: true },
    });
    await reissueAgentCredential(tx, deps, agent.id, { newStatusIndex: true });
    const updated = serializeAgent(await tx.agent.findUniqueOrThrow({ where: { id: agent.id }, select: agentSelect }));
    await recordAgentChange(tx, ownerId, agent.id, 'spending_rules_updated', spendingRulesAuditData(updated));
    return updated;
  });
}
