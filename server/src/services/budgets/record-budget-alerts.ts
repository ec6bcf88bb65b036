/**
 * Budget alerts, recorded inside the transaction that captures a payment (settle-payment.ts):
 * once the capture counts, the agent's spend is compared with its spending rules' daily limit
 * (the rolling 24 hours the gate counts, alerting once per UTC day) and with the monthly budget
 * of every enforced policy that applies to the payment (the agent's spend in the UTC month, as
 * the policy engine counts it). Each threshold reached (80 and 100 percent) inserts one
 * BudgetAlert per agent, scope, threshold and period; the unique index turns a second crossing,
 * a retry or a racing capture into nothing. A new alert's body is the budget.threshold webhook
 * event (its id is the alert's), delivered to the owner's enabled endpoints subscribed to it;
 * the caller starts those deliveries after commit.
 *
 * Shadow policies never alert: they are reported per payment, not enforced. A stored policy
 * that no longer parses skips the monthly checks rather than failing the capture: the money
 * has moved on the rail by now, and the gate already refuses new payments over such a policy.
 */
import { randomUUID } from 'node:crypto';
import {
  AppError,
  BUDGET_ALERT_THRESHOLDS,
  BUDGET_THRESHOLD_EVENT,
  toDecimalString,
  toDollars,
  type BudgetAlertScope,
  type BudgetThresholdEventView,
  type PolicyDocument,
} from '@purser/core';
import type { Prisma, TransactionClient } from '@purser/db';
import { spentByAgent } from '../payments/gate-inputs';
import { loadApplicablePolicies } from '../policies/load-applicable-policies';

/** Limits are dollars; spend sums both USD stablecoins, as the limits count them. */
const ALERT_CURRENCY = 'USDC' as const;

interface LimitCheck {
  /** The stored scope: 'daily_limit' or 'policy:<policy id>'. */
  scope: string;
  kind: BudgetAlertScope;
  policyId: string | null;
  period: string;
  spent: bigint;
  limit: bigint;
}

export interface CapturedPayment {
  intentId: string;
  ownerId: string;
  agentId: string;
}

/**
 * Records the alerts the capture of a payment reached and their webhook deliveries, and
 * returns the ids of the deliveries it created (to start after commit).
 */
export async function recordBudgetAlerts(tx: TransactionClient, payment: CapturedPayment, at = new Date()): Promise<string[]> {
  const { intentId, ownerId, agentId } = payment;
  const agent = await tx.agent.findUniqueOrThrow({
    where: { id: agentId },
    select: { name: true, spendingRules: { select: { maxDailyLimit: true } } },
  });
  const usage = await spentByAgent(tx, agentId, at);
  const day = at.toISOString().slice(0, 10);
  const checks: LimitCheck[] = [];
  const dailyLimit = agent.spendingRules?.maxDailyLimit;
  if (dailyLimit !== undefined) {
    checks.push({ scope: 'daily_limit', kind: 'daily_limit', policyId: null, period: day, spent: usage.spentInWindow, limit: dailyLimit });
  }
  for (const policy of await enforcedPolicies(tx, { ownerId, agentId, intentId })) {
    const budget = policy.rules.monthlyBudget;
    if (budget === undefined) continue;
    checks.push({ scope: `policy:${policy.id}`, kind: 'monthly_budget', policyId: policy.id, period: day.slice(0, 7), spent: usage.spentThisMonth, limit: budget });
  }

  const rows: Prisma.BudgetAlertCreateManyInput[] = [];
  for (const check of checks) {
    // A zero limit is "no spending": every payment is refused, nothing to warn about.
    if (check.limit <= 0n) continue;
    for (const threshold of BUDGET_ALERT_THRESHOLDS) {
      if (check.spent * 100n < BigInt(threshold) * check.limit) continue;
      const id = randomUUID();
      const event: BudgetThresholdEventView = {
        id,
        type: BUDGET_THRESHOLD_EVENT,
        createdAt: at.toISOString(),
        data: {
          alert: {
            agentId,
            agentName: agent.name,
            scope: check.kind,
            policyId: check.policyId,
            threshold,
            period: check.period,
            spent: toDollars(check.spent),
            spentExact: toDecimalString(check.spent),
            limit: toDollars(check.limit),
            limitExact: toDecimalString(check.limit),
            currency: ALERT_CURRENCY,
            intentId,
          },
        },
      };
      rows.push({
        id,
        ownerId,
        agentId,
        scope: check.scope,
        threshold,
        period: check.period,
        spent: check.spent,
        limit: check.limit,
        currency: ALERT_CURRENCY,
        paymentIntentId: intentId,
        payload: event as unknown as Prisma.InputJsonObject,
        createdAt: at,
      });
    }
  }

  if (rows.length === 0) return [];
  // ON CONFLICT DO NOTHING: an alert of this period exists already (an earlier payment, or a
  // racing capture that committed first) and only the new ones come back.
  const inserted = await tx.budgetAlert.createManyAndReturn({ data: rows, skipDuplicates: true, select: { id: true } });
  const fresh = rows.filter((row) => inserted.some((alert) => alert.id === row.id));
  return fresh.length > 0 ? createDeliveries(tx, ownerId, fresh, at) : [];
}

async function enforcedPolicies(tx: TransactionClient, scope: { ownerId: string; agentId: string; intentId: string }): Promise<PolicyDocument[]> {
  try {
    return (await loadApplicablePolicies(tx, scope)).filter((policy) => !policy.shadow);
  } catch (error) {
    // A stored policy that does not parse (see above); a database error aborts the capture.
    if (error instanceof AppError) return [];
    throw error;
  }
}

async function createDeliveries(tx: TransactionClient, ownerId: string, alerts: Prisma.BudgetAlertCreateManyInput[], at: Date): Promise<string[]> {
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { ownerId, enabled: true, deletedAt: null, events: { has: BUDGET_THRESHOLD_EVENT } },
    orderBy: { id: 'asc' },
    select: { id: true },
  });
  if (endpoints.length === 0) return [];
  const deliveries = await tx.webhookDelivery.createManyAndReturn({
    data: alerts.flatMap((alert) =>
      endpoints.map((endpoint) => ({ endpointId: endpoint.id, eventId: alert.id!, eventType: BUDGET_THRESHOLD_EVENT, payload: alert.payload, createdAt: at })),
    ),
    skipDuplicates: true,
    select: { id: true },
  });
  return deliveries.map((delivery) => delivery.id).sort();
}

/**
 * The webhook deliveries of the budget alerts a payment's capture caused: what a retry of an
 * already committed capture starts again (starting a started delivery changes nothing). Read
 * through the agent's alerts and the owner's endpoints, the indexes those tables have.
 */
export async function budgetAlertDeliveryIds(tx: TransactionClient, payment: CapturedPayment): Promise<string[]> {
  const alerts = await tx.budgetAlert.findMany({ where: { agentId: payment.agentId, paymentIntentId: payment.intentId }, select: { id: true } });
  if (alerts.length === 0) return [];
  const endpoints = await tx.webhookEndpoint.findMany({ where: { ownerId: payment.ownerId }, select: { id: true } });
  if (endpoints.length === 0) return [];
  const deliveries = await tx.webhookDelivery.findMany({
    where: { endpointId: { in: endpoints.map((endpoint) => endpoint.id) }, eventId: { in: alerts.map((alert) => alert.id) } },
    orderBy: { id: 'asc' },
    select: { id: true },
  });
  return deliveries.map((delivery) => delivery.id);
}
