/**
 * The policy and KYA gate's inputs, read in the front of a payment's transaction
 * (authorize-payment.ts) under the intent's and the agent wallet's locks: attaching a policy
 * takes the intent's lock, so no policy slips past the gate, and the usage read under the
 * wallet's lock counts every payment before this one.
 */
import {
  AppError,
  INTENT_NOT_FOUND_MESSAGE,
  OWNER_TIME_ZONE,
  paymentSessionScopeSchema,
  railFromDb,
  usageWindows,
  type GateDecision,
  type GateInput,
  type IntentStatus,
  type KyaTier,
} from '@purser/core';
import type { PaymentSessionStatus, Prisma, TransactionClient } from '@purser/db';
import { spentThroughConnection } from '../oauth/connection-spend';
import { spentFromSession } from '../payment-sessions/session-spend';
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
      oauthConnection: { select: { id: true, capUnits: true } },
      paymentSession: { select: { id: true, status: true, expiresAt: true, totalUnits: true, perPaymentUnits: true, scope: true } },
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
      rail: intent.rail === null ? null : railFromDb(intent.rail),
      protocol: protocolOfMetadata(intent.metadata),
    },
    agent: { kyaTier: intent.agent.kyaTier as KyaTier, spendingRules: rules },
    policies: policies.map(({ id, name, version, rules: parsed, shadow }) => ({ id, name, version, rules: parsed, shadow })),
    usage: await spentByAgent(tx, intent.agentId, at),
    connection: await connectionUsage(tx, intent.oauthConnection),
    session: await sessionUsage(tx, intent.paymentSession),
    timeZone: OWNER_TIME_ZONE,
    status: intent.status as IntentStatus,
  };
}

/** The cap of the connection an intent is paid through and what it spent; null without a cap. */
async function connectionUsage(tx: TransactionClient, connection: { id: string; capUnits: bigint | null } | null): Promise<GateInput['connection']> {
  if (!connection || connection.capUnits === null) return null;
  return { capUnits: connection.capUnits, spentUnits: await spentThroughConnection(tx, connection.id) };
}

/** The payment session an intent is charged to, with what it spent; null for a payment outside any. */
async function sessionUsage(
  tx: TransactionClient,
  session: { id: string; status: PaymentSessionStatus; expiresAt: Date; totalUnits: bigint; perPaymentUnits: bigint | null; scope: Prisma.JsonValue } | null,
): Promise<GateInput['session']> {
  if (!session) return null;
  return {
    status: session.status,
    expiresAt: session.expiresAt,
    totalUnits: session.totalUnits,
    perPaymentUnits: session.perPaymentUnits,
    spentUnits: await spentFromSession(tx, session.id),
    scope: paymentSessionScopeSchema.parse(session.scope),
  };
}

/** The protocol of a paid HTTP call (x402 or MPP) as its metadata records it; null for any other payment. */
function protocolOfMetadata(metadata: Prisma.JsonValue): string | null {
  const x402 = isJsonObject(metadata) ? metadata.x402 : undefined;
  if (!isJsonObject(x402)) return null;
  return x402.protocol === 'mpp' ? 'mpp' : 'x402';
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
