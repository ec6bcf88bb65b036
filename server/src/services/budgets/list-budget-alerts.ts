/**
 * The owner's budget alerts, newest first, optionally of one agent: the console's notices.
 * The policy's name is read from the policy version the alert names (kept even once superseded
 * or deleted), so a notice says which budget it was about.
 */
import { toDecimalString, toDollars, type BudgetAlertListView, type BudgetAlertThreshold, type ListBudgetAlertsInput } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { assertUuids } from '../agents/owned-agent';

const POLICY_SCOPE_PREFIX = 'policy:';

export async function listBudgetAlerts(prisma: PrismaClient, ownerId: string, input: ListBudgetAlertsInput): Promise<BudgetAlertListView> {
  assertUuids(ownerId, ...(input.agentId ? [input.agentId] : []));
  const rows = await prisma.budgetAlert.findMany({
    where: { ownerId, ...(input.agentId ? { agentId: input.agentId } : {}) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: input.limit,
    select: {
      id: true,
      agentId: true,
      scope: true,
      threshold: true,
      period: true,
      spent: true,
      limit: true,
      currency: true,
      paymentIntentId: true,
      createdAt: true,
      agent: { select: { name: true } },
    },
  });
  const policyIds = [...new Set(rows.flatMap((row) => (row.scope.startsWith(POLICY_SCOPE_PREFIX) ? [row.scope.slice(POLICY_SCOPE_PREFIX.length)] : [])))];
  const policies = policyIds.length
    ? await prisma.policy.findMany({ where: { ownerId, id: { in: policyIds } }, select: { id: true, name: true } })
    : [];
  const policyNames = new Map(policies.map((policy) => [policy.id, policy.name]));

  return {
    alerts: rows.map((row) => {
      const policyId = row.scope.startsWith(POLICY_SCOPE_PREFIX) ? row.scope.slice(POLICY_SCOPE_PREFIX.length) : null;
      return {
        id: row.id,
        agentId: row.agentId,
        agentName: row.agent.name,
        scope: policyId ? 'monthly_budget' : 'daily_limit',
        policyId,
        policyName: policyId ? (policyNames.get(policyId) ?? null) : null,
        threshold: row.threshold as BudgetAlertThreshold,
        period: row.period,
        spent: toDollars(row.spent),
        spentExact: toDecimalString(row.spent),
        limit: toDollars(row.limit),
        limitExact: toDecimalString(row.limit),
        currency: row.currency,
        intentId: row.paymentIntentId,
        createdAt: row.createdAt.toISOString(),
      };
    }),
  };
}
