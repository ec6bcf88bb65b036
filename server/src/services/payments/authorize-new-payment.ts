/**
 * The front of a new payment that goes through, in two statements inside the caller's
 * transaction: the hot path of a paid call (services/paid-calls/front/pay-in-request.ts).
 *
 * `readNewPaymentInputs` takes the locks every payment takes, in their order (the agent's row,
 * then its wallet), and reads under them everything the gate and the hold need
 * (purser_pay_front_inputs). `authorizedAtOnce` evaluates the gate (core's policy engine) and
 * answers the payment's rows when it goes through at once: allowed by its rules and policies,
 * a rail to carry it, the agent active, the money there. `writeAuthorizedPayment` then writes
 * them all (purser_pay_front_authorized): the intent, already processing; its intent.created and
 * intent.approved events and their deliveries; the hold; the agent's pending payment; the signed
 * rail operation; the outbox row; the audit entries. They are the rows the general front
 * (authorize-payment.ts) writes for the same payment, which a test compares.
 *
 * Any other outcome (a denial, an approval to wait for, too little money, a suspended agent), and
 * any payment through an OAuth connection (whose cap the general front checks), answers null, and the caller runs the general front in the same transaction, under the locks
 * already taken: those paths are rare, and they keep one implementation.
 */
import {
  evaluateGate,
  OWNER_TIME_ZONE,
  PAYMENT_WORKFLOW_ACTOR,
  railFromDb,
  railToDb,
  toGateDecision,
  usageWindows,
  type GateDecision,
  type IntentView,
  type KyaTier,
  type PolicyDocument,
  type PolicyEvaluation,
} from '@purser/core';
import type { Prisma, TransactionClient } from '@purser/db';
import { paymentWorkflowId } from '@purser/workflows';
import { randomUUID } from 'node:crypto';
import { countGateDecision, countPaymentTransition } from '../../metrics/metrics';
import { auditEventColumns, type AuditEventInput } from '../audit/append-audit-event';
import { connectionOf, type PreparedIntent } from '../intents/create-intent';
import { toIntentView, type IntentRow } from '../intents/intent-view';
import { policyDocumentsOf, type PolicyRowJson } from '../policies/load-applicable-policies';
import type { NewOperation } from '../rail-operations/operation-record';
import type { Rail } from '../rail-operations/rail';
import { gateAudit, merchantIsVerified } from './gate-inputs';

/** What purser_pay_front_inputs read under the agent's and its wallet's locks. */
export interface NewPaymentInputs {
  agentStatus: string;
  kyaTier: KyaTier | null;
  /** The wallet's balance in the payment's currency; null without the wallet. */
  balance: bigint | null;
  /** The wallet's spendable ledger account in that currency, if it has one yet. */
  accountId: string | null;
  rules: { maxTransactionAmount: bigint; maxDailyLimit: bigint; approvalThreshold: bigint | null } | null;
  /** The policies that apply, in the order the engine evaluates them. */
  policies: PolicyDocument[];
  usage: { spentInWindow: bigint; spentThisMonth: bigint };
  /** The hold's ledger transaction id, drawn by the database (its audit entry names it). */
  holdId: string;
  at: Date;
}

type InputsJson = {
  agent_status: string;
  kya_tier?: string | null;
  wallet_found?: boolean;
  balance?: string | null;
  account_id?: string | null;
  rules?: { max_transaction_amount: string; max_daily_limit: string; approval_threshold: string | null } | null;
  policies?: PolicyRowJson[];
  spent_in_window?: string;
  spent_this_month?: string;
  hold_id?: string;
};

/** One statement: the locks, then the gate's and the hold's inputs read under them. */
export async function readNewPaymentInputs(tx: TransactionClient, prepared: PreparedIntent): Promise<NewPaymentInputs> {
  const at = new Date();
  const { dailyWindowStart, monthStart } = usageWindows(at, OWNER_TIME_ZONE);
  const [row] = await tx.$queryRaw<{ inputs: InputsJson }[]>`
    SELECT "purser_pay_front_inputs"(${prepared.input.agentId}::uuid, ${prepared.wallet.id}::uuid, ${prepared.input.currency}::"Currency",
                                     ${dailyWindowStart}::timestamptz, ${monthStart}::timestamptz) AS "inputs"`;
  const inputs = row!.inputs;
  const rules = inputs.rules ?? null;
  return {
    agentStatus: inputs.agent_status,
    kyaTier: (inputs.kya_tier ?? null) as KyaTier | null,
    balance: inputs.wallet_found && inputs.balance != null ? BigInt(inputs.balance) : null,
    accountId: inputs.account_id ?? null,
    rules: rules && {
      maxTransactionAmount: BigInt(rules.max_transaction_amount),
      maxDailyLimit: BigInt(rules.max_daily_limit),
      approvalThreshold: rules.approval_threshold === null ? null : BigInt(rules.approval_threshold),
    },
    policies: policyDocumentsOf(inputs.policies ?? []),
    usage: { spentInWindow: BigInt(inputs.spent_in_window ?? 0), spentThisMonth: BigInt(inputs.spent_this_month ?? 0) },
    holdId: inputs.hold_id ?? '',
    at,
  };
}

/** A payment that goes through at once: the gate's decision and the rows it writes. */
export interface AuthorizedAtOnce {
  decision: GateDecision;
  evaluation: PolicyEvaluation;
  /** The intent as the transaction leaves it: processing, its funds held. */
  row: IntentRow;
  accountId: string;
}

/**
 * The gate, on the inputs just read; the payment's rows when it goes through at once, else null
 * (the general front decides it). `rail` is the rail the payment names, whose quote reads no network.
 */
export async function authorizedAtOnce(prepared: PreparedIntent, inputs: NewPaymentInputs, rail: Rail): Promise<AuthorizedAtOnce | null> {
  const { input, intentId, creator } = prepared;
  // Through an OAuth connection, or charged to a payment session: the general front's gate sums
  // what the connection or the session spent.
  if (connectionOf(creator) !== null || input.paymentSessionId !== undefined) return null;
  if (inputs.agentStatus !== 'active' || !inputs.rules || inputs.accountId === null || inputs.balance === null || inputs.balance < input.amount) return null;
  if (input.policy || input.rail !== rail.name || !rail.currencies.includes(input.currency)) return null;
  const { at } = inputs;
  const metadata = input.metadata as Prisma.JsonObject;
  const dbRail = railToDb(input.rail);
  const evaluation = evaluateGate(
    {
      intent: {
        amount: input.amount,
        currency: input.currency,
        category: input.category ?? null,
        merchant: input.merchant ?? null,
        toAddress: input.toAddress ?? null,
        merchantVerified: merchantIsVerified(dbRail, metadata),
        country: input.geography ?? null,
        kyaTier: input.kyaTier ?? null,
      },
      agent: { kyaTier: inputs.kyaTier as KyaTier, spendingRules: inputs.rules },
      policies: inputs.policies.map(({ id, name, version, rules, shadow }) => ({ id, name, version, rules, shadow })),
      usage: inputs.usage,
      timeZone: OWNER_TIME_ZONE,
      status: 'created',
    },
    at,
  );
  if (evaluation.decision !== 'allow') return null;
  const row: IntentRow = {
    id: intentId,
    ownerId: creator.ownerId,
    agentId: input.agentId,
    createdBy: creator.createdBy,
    amount: input.amount,
    currency: input.currency,
    purpose: input.purpose,
    merchant: input.merchant ?? null,
    toAddress: input.toAddress ?? null,
    category: input.category ?? null,
    kyaTier: input.kyaTier ?? null,
    geography: input.geography ?? null,
    maxRetries: input.maxRetries,
    metadata,
    // Only a payment naming no session goes through at once (above).
    paymentSessionId: null,
    status: 'processing',
    rail: dbRail,
    workflowId: paymentWorkflowId(intentId),
    idempotencyKey: prepared.idempotencyKey ?? `auto:${intentId}`,
    failureCode: null,
    failureMessage: null,
    policyDecision: toGateDecision(evaluation, at) as unknown as Prisma.JsonValue,
    expiresAt: null,
    reservedAt: at,
    settledAt: null,
    createdAt: at,
    updatedAt: at,
    approval: null,
  };
  const quote = await rail.quote({
    intentId,
    amount: input.amount,
    currency: input.currency,
    toAddress: row.toAddress,
    merchant: row.merchant,
    geography: row.geography,
    metadata,
    payer: { agentId: input.agentId, walletAddress: prepared.wallet.walletAddress, evmAddress: prepared.wallet.evmWalletAddress },
  });
  if (!quote.available) return null;
  return { decision: row.policyDecision as unknown as GateDecision, evaluation, row, accountId: inputs.accountId };
}

/**
 * One statement: every row of the authorised payment (purser_pay_front_authorized), the signed
 * operation among them when there is one. Answers the webhook deliveries of its events, which
 * its outbox row names and the caller starts once the transaction has committed.
 */
export async function writeAuthorizedPayment(
  tx: TransactionClient,
  prepared: PreparedIntent,
  inputs: NewPaymentInputs,
  authorized: AuthorizedAtOnce,
  operation: { rail: Rail; operation: NewOperation } | null,
  log: (message: string, data: object) => void,
): Promise<string[]> {
  const { row, decision, evaluation } = authorized;
  const { at } = inputs;
  const intentId = row.id;
  const policyDecision = row.policyDecision;
  const created: IntentRow = { ...row, status: 'created', policyDecision: null, reservedAt: null };
  const approved: IntentRow = { ...row, status: 'approved', reservedAt: null };
  const event = (type: 'intent.created' | 'intent.approved', view: IntentView) => {
    const id = randomUUID();
    const payload = JSON.parse(JSON.stringify({ id, type, createdAt: at.toISOString(), data: { intent: view } })) as Prisma.JsonObject;
    return { id, type, payload, created_at: at.toISOString() };
  };
  const subject = `payment_intent:${intentId}`;
  const ownerId = row.ownerId;
  const audit: AuditEventInput[] = [
    {
      actor: prepared.actor,
      action: 'payment_intent.created',
      subject,
      ownerId,
      at,
      data: { agent_id: row.agentId, amount: row.amount.toString(), currency: row.currency, rail: prepared.input.rail, merchant: row.merchant },
    },
    { actor: PAYMENT_WORKFLOW_ACTOR, action: 'payment_intent.approved', subject, ownerId, at, data: { from: 'created', to: 'approved', ...gateAudit(decision) } },
    {
      actor: PAYMENT_WORKFLOW_ACTOR,
      action: 'payment_intent.processing',
      subject,
      ownerId,
      at,
      data: { from: 'approved', to: 'processing', ledger_transaction_id: inputs.holdId, amount: row.amount.toString(), currency: row.currency },
    },
  ];
  const signed = operation?.operation;
  const [written] = await tx.$queryRaw<{ deliveries: string[] }[]>`
    SELECT "purser_pay_front_authorized"(
      ${JSON.stringify({
        id: intentId,
        owner_id: ownerId,
        agent_id: row.agentId,
        created_by: row.createdBy,
        amount: row.amount.toString(),
        currency: row.currency,
        purpose: row.purpose,
        merchant: row.merchant,
        to_address: row.toAddress,
        category: row.category,
        kya_tier: row.kyaTier,
        geography: row.geography,
        max_retries: row.maxRetries,
        metadata: row.metadata,
        status: row.status,
        // The database's value of the rail (Prisma's enum maps x402_base to "x402-base"): its API name.
        rail: prepared.input.rail,
        workflow_id: row.workflowId,
        idempotency_key: row.idempotencyKey,
        request_hash: prepared.requestHash,
        policy_decision: policyDecision,
        reserved_at: at.toISOString(),
        created_at: at.toISOString(),
        updated_at: at.toISOString(),
      })}::jsonb,
      ${JSON.stringify([event('intent.created', toIntentView(created)), event('intent.approved', toIntentView(approved))])}::jsonb,
      ${JSON.stringify({
        id: inputs.holdId,
        wallet_id: prepared.wallet.id,
        agent_account_id: authorized.accountId,
        amount: row.amount.toString(),
        currency: row.currency,
        description: `Funds held for payment intent ${intentId}`,
      })}::jsonb,
      ${JSON.stringify({
        agent_id: row.agentId,
        type: 'payment',
        amount: row.amount.toString(),
        currency: row.currency,
        status: 'pending',
        category: row.category,
        to_address: row.toAddress,
        description: row.purpose || row.merchant || 'Payment',
        metadata: { ...(row.metadata as Prisma.JsonObject), payment_intent_id: intentId, rail: railFromDb(row.rail ?? 'ledger') },
        created_at: at.toISOString(),
      })}::jsonb,
      ${JSON.stringify(
        signed && operation
          ? {
              rail: operation.rail.name,
              reference: signed.reference,
              status: signed.status,
              sandbox: operation.rail.sandbox,
              decline_code: signed.declineCode ?? null,
              decline_message: signed.declineMessage ?? null,
              settle_after: signed.settleAfter?.toISOString() ?? null,
              settled_at: signed.settledAt?.toISOString() ?? null,
              details: signed.details,
              created_at: at.toISOString(),
            }
          : null,
      )}::jsonb,
      ${JSON.stringify(auditEventColumns(audit))}::jsonb
    ) AS "deliveries"`;
  countGateDecision(evaluation);
  if (decision.shadow.length) log('shadow policies evaluated', { intentId, enforced: decision.decision, shadow: decision.shadow });
  countPaymentTransition('approved', row, at);
  countPaymentTransition('processing', row, at);
  return written!.deliveries;
}
