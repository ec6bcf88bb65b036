/**
 * The policy and KYA gate's inputs, read in the front of a payment's transaction
 * (authorize-payment.ts) under the intent's and the agent wallet's locks: attaching a policy
 * takes the intent's lock, so no policy slips past the gate, and the usage read under the
 * wallet's lock counts every payment before this one.
 */
import { AppError, INTENT_NOT_FOUND_MESSAGE, OWNER_TIME_ZONE, usageWindows, type GateDecision, type GateInput, type IntentStatus, type KyaTier } from '@purser/core';
import type { Prisma, TransactionClient } from '@purser/db';
import { loadApplicablePolicies } from '../policies/load-applicable-policies';

/** What the agent has spent: intents whose funds are held or captured (not released). */
export async function spentByAgent(tx: TransactionClient, agentId: string, at: Date): Promise<{ spentInWindow: bigint; spentThisMonth: bigint }> {
  const { dailyWindowStart, monthStart } = usageWindows(at, OWNER_TIME_ZONE);
  const since = dailyWindowStart < monthStart ? dailyWindowStart : monthStart;
  const [row] = await tx.$queryRaw<{ window: bigint | null; month: bigint | null }[]>`
    SELECT sum("amount") FILTER (WHERE "reserved_at" >= ${dailyWindowStart}) AS "window",
           sum("amount") FILTER (WHERE "reserved_at" >= ${monthStart}) AS "month"
      FROM "payment_intents"
     WHERE "agent_id" = ${agentId}::uuid AND "reserved_at" >= ${since} AND "released_at" IS NULL`;
  return { spentInWindow: BigInt(row?.window ?? 0), spentThisMonth: BigInt(row?.month ?? 0) };
}

export async function loadGateInput(tx: TransactionClient, intentId: string, at: Date): Promise<GateInput> {
  const intent = await tx.paymentIntent.findUnique({
    where: { id: intentId },
    select: {
      id: true,
      ownerId: true,
      agentId: true,
      status: true,
      amount: true,
      currency: true,
      category: true,
      merchant: true,
      toAddress: true,
      rail: true,
      metadata: true,
      geography: true,
      kyaTier: true,
      agent: { select: { kyaTier: true, spendingRules: { select: { maxTransactionAmount: true, maxDailyLimit: true, approvalThreshold: true } } } },
    },
  });
  if (!intent) throw new AppError('NOT_FOUND', INTENT_NOT_FOUND_MESSAGE);
  const rules = intent.agent.spendingRules;
  if (!rules) throw new AppError('CONFLICT', 'The agent has no spending rules');
  const policies = await loadApplicablePolicies(tx, { ownerId: intent.ownerId, agentId: intent.agentId, intentId });
  return {
    intent: {
      amount: intent.amount,
      currency: intent.currency,
      category: intent.category,
      merchant: intent.merchant,
      toAddress: intent.toAddress,
      merchantVerified: merchantIsVerified(intent.rail, intent.metadata),
      country: intent.geography,
      kyaTier: intent.kyaTier as KyaTier | null,
    },
    agent: { kyaTier: intent.agent.kyaTier as KyaTier, spendingRules: rules },
    policies: policies.map(({ id, name, version, rules: parsed, shadow }) => ({ id, name, version, rules: parsed, shadow })),
    usage: await spentByAgent(tx, intent.agentId, at),
    timeZone: OWNER_TIME_ZONE,
    status: intent.status as IntentStatus,
  };
}

/**
 * An x402 intent's merchant is the host of a URL the agent supplied, unless Purser fetched that
 * URL itself (/x402/fetch marks `metadata.x402.url_fetched`): only then is the host where the
 * money goes. Other intents' merchants are taken as given.
 */
export function merchantIsVerified(rail: string | null, metadata: Prisma.JsonValue): boolean {
  if (rail !== 'x402_base') return true;
  const x402 = isJsonObject(metadata) ? metadata.x402 : undefined;
  return isJsonObject(x402) && x402.url_fetched === true;
}

function isJsonObject(value: Prisma.JsonValue | undefined): value is Prisma.JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The gate's decision as its audit entry records it: enforced rules that fired, shadow policies' verdicts. */
export function gateAudit(decision: GateDecision) {
  return {
    decision: decision.decision,
    fired: decision.fired.filter((rule) => !rule.shadow).map((rule) => rule.code),
    shadow: decision.shadow.map((s) => ({ policy_id: s.policyId, decision: s.decision })),
  };
}
