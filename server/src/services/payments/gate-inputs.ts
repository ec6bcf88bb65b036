/**
 * The policy and KYA gate's database side. loadGate gathers what the pure policy engine needs
 * (the workflow evaluates it); applyGate records the decision and moves the intent, under the
 * intent's row lock, unless the inputs changed since they were loaded (`stale`: the workflow
 * evaluates again). Attaching a policy takes the same lock, so no policy slips past the gate.
 * Reserve loads the same inputs under the wallet lock and evaluates them with the same
 * functions (core's policy/gate).
 */
import {
  AppError,
  INTENT_NOT_FOUND_MESSAGE,
  PAYMENT_WORKFLOW_ACTOR,
  usageWindows,
  policyRulesToDocument,
  type IntentStatus,
  type GateDecision,
  type GateInput,
  type GateOutcome,
} from '@purser/core';
import type { Prisma, TransactionClient } from '@purser/db';
import { loadApplicablePolicies } from '../policies/load-applicable-policies';
import { DEFAULT_APPROVAL_TIME_BOX_MS } from '@purser/workflows';
import { hashRequest } from '../idempotency/with-idempotency';
import { lockIntent, transitionIntent } from '../intents/transition-intent';
import { openApproval } from './approval-steps';

/** Owners have no time zone setting yet: calendar months are UTC months. */
export const OWNER_TIME_ZONE = 'UTC';

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
      updatedAt: true,
      agent: { select: { kyaTier: true, spendingRules: { select: { maxTransactionAmount: true, maxDailyLimit: true, approvalThreshold: true, updatedAt: true } } } },
    },
  });
  if (!intent) throw new AppError('NOT_FOUND', INTENT_NOT_FOUND_MESSAGE);
  const rules = intent.agent.spendingRules;
  if (!rules) throw new AppError('CONFLICT', 'The agent has no spending rules');
  const policies = await loadApplicablePolicies(tx, { ownerId: intent.ownerId, agentId: intent.agentId, intentId });
  const usage = await spentByAgent(tx, intent.agentId, at);
  const input: Omit<GateInput, 'revision'> = {
    intent: {
      amount: intent.amount.toString(),
      currency: intent.currency,
      category: intent.category,
      merchant: intent.merchant,
      toAddress: intent.toAddress,
      merchantVerified: merchantIsVerified(intent.rail, intent.metadata),
      country: intent.geography,
      kyaTier: intent.kyaTier,
    },
    agent: {
      kyaTier: intent.agent.kyaTier,
      spendingRules: {
        maxTransactionAmount: rules.maxTransactionAmount.toString(),
        maxDailyLimit: rules.maxDailyLimit.toString(),
        approvalThreshold: rules.approvalThreshold?.toString() ?? null,
      },
    },
    // Document form (dollars), which the workflow parses again with policyRulesSchema.
    policies: policies.map(({ id, name, version, rules: parsed, shadow }) => ({ id, name, version, rules: policyRulesToDocument(parsed), shadow })),
    usage: { spentInWindow: usage.spentInWindow.toString(), spentThisMonth: usage.spentThisMonth.toString() },
    timeZone: OWNER_TIME_ZONE,
    status: intent.status as IntentStatus,
  };
  // Usage is left out: it moves with every payment, and reserve re-checks it under the wallet lock.
  const revision = hashRequest({ ...input, usage: null, rulesUpdatedAt: rules.updatedAt.toISOString(), intentUpdatedAt: intent.updatedAt.toISOString() });
  return { ...input, revision };
}

/**
 * An x402 intent's merchant is the host of a URL the agent supplied, unless Purser fetched that
 * URL itself (/x402/fetch marks `metadata.x402.url_fetched`): only then is the host where the
 * money goes. Other intents' merchants are taken as given.
 */
function merchantIsVerified(rail: string | null, metadata: Prisma.JsonValue): boolean {
  if (rail !== 'x402_base') return true;
  const x402 = isJsonObject(metadata) ? metadata.x402 : undefined;
  return isJsonObject(x402) && x402.url_fetched === true;
}

function isJsonObject(value: Prisma.JsonValue | undefined): value is Prisma.JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export async function applyGateDecision(tx: TransactionClient, intentId: string, decision: GateDecision, revision: string, log: (message: string, data: object) => void): Promise<GateOutcome> {
  const intent = await lockIntent(tx, intentId);
  if (intent.status !== 'created' && intent.status !== 'pending_approval') return { status: intent.status };
  const current = await loadGateInput(tx, intentId, new Date());
  if (current.revision !== revision) return { stale: true };

  const policyDecision = decision as unknown as Prisma.InputJsonObject;
  const enforced = decision.fired.filter((rule) => !rule.shadow);
  const audit = gateAudit(decision);
  if (decision.shadow.length) log('shadow policies evaluated', { intentId, enforced: decision.decision, shadow: decision.shadow });

  if (decision.decision === 'deny') {
    const denial = enforced.find((rule) => rule.outcome === 'deny');
    await transitionIntent(tx, intent, {
      to: 'blocked',
      actor: PAYMENT_WORKFLOW_ACTOR,
      data: { policyDecision, failureCode: denial?.code ?? 'POLICY_VIOLATION', failureMessage: denial?.message ?? 'Refused by policy' },
      audit,
    });
    return { status: 'blocked' };
  }
  if (decision.decision === 'require_approval' && intent.status === 'pending_approval') {
    await tx.paymentIntent.update({ where: { id: intentId }, data: { policyDecision }, select: { id: true } });
    return { status: 'pending_approval' };
  }
  const to = decision.decision === 'require_approval' ? 'pending_approval' : 'approved';
  await transitionIntent(tx, intent, { to, actor: PAYMENT_WORKFLOW_ACTOR, data: { policyDecision }, audit });
  // The approval exists as soon as the intent waits for it, so an owner can decide at once;
  // the workflow's openApproval then sets the deadline its timer keeps.
  if (to === 'pending_approval') await openApproval(tx, intentId, new Date(Date.parse(decision.evaluatedAt) + (decision.timeBoxMs ?? DEFAULT_APPROVAL_TIME_BOX_MS)));
  return { status: to };
}

/** The gate's decision as its audit entry records it: enforced rules that fired, shadow policies' verdicts. */
export function gateAudit(decision: GateDecision) {
  return {
    decision: decision.decision,
    fired: decision.fired.filter((rule) => !rule.shadow).map((rule) => rule.code),
    shadow: decision.shadow.map((s) => ({ policy_id: s.policyId, decision: s.decision })),
  };
}
