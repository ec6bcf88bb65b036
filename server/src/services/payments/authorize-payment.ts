/**
 * Authorize: the front of the common payment in one database transaction. When the gate allows
 * the payment, its rail quotes it and the agent's balance covers it, one transaction records the
 * gate's decision, holds the funds, moves the intent created -> approved -> processing with
 * their audit entries, and emits intent.created and intent.approved. That replaces the
 * workflow's steps for the gate's inputs, the gate's decision, the rail, the reserve and both events.
 *
 * The gate runs under the agent wallet's lock, with the usage read there: the same authoritative
 * check reserve makes, so a burst of one agent's payments cannot overspend a balance or a limit.
 * Anything else (approval needed, a denial, no rail, too little money, a suspended agent, an
 * intent that is no longer `created`) writes nothing and answers `authorized: false`: the
 * workflow then takes the steps one by one, each recording its own outcome and events.
 *
 * Funds are held only inside the workflow: an intent whose workflow never started holds nothing.
 */
import { isAppError, type AuthorizeOutcome, type GateDecision, evaluateGate, toGateDecision, PAYMENT_WORKFLOW_ACTOR } from '@purser/core';
import type { Prisma, PrismaClient, TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { getOrCreateAgentAccount } from '../ledger/post-ledger-transaction';
import { intentSelect, toIntentView, type IntentRow } from '../intents/intent-view';
import { lockIntent, transitionIntent, type LockedIntent } from '../intents/transition-intent';
import { selectRail, type Rails } from '../rails/create-rails';
import type { Rail } from '../rails/rail';
import { emitPaymentEvent } from '../webhooks/emit-payment-event';
import { gateAudit, loadGateInput } from './gate-records';
import { toRailPayment } from './rail-steps';
import { holdFunds } from './reserve-funds';

export interface AuthorizeDeps {
  prisma: PrismaClient;
  rails: Rails;
  /** Starts the webhook deliveries of the events, after the commit. */
  startDeliveries: (deliveryIds: string[]) => Promise<void>;
  log: (message: string, data: object) => void;
}

export async function authorizePayment({ prisma, rails, startDeliveries, log }: AuthorizeDeps, intentId: string): Promise<AuthorizeOutcome> {
  const result = await withAuditRetry(prisma, (tx) => authorizeInTransaction(tx, rails, intentId, log));
  if (!result) return { authorized: false };
  await startDeliveries(result.deliveryIds);
  return { authorized: true, rail: result.rail.name, sandbox: result.rail.sandbox, decision: result.decision };
}

type Authorized = { decision: GateDecision; deliveryIds: string[]; rail: Pick<Rail, 'name' | 'sandbox'> };

async function authorizeInTransaction(tx: TransactionClient, rails: Rails, intentId: string, log: AuthorizeDeps['log']): Promise<Authorized | null> {
  const intent = await lockIntent(tx, intentId);
  const row = await tx.paymentIntent.findUniqueOrThrow({
    where: { id: intentId },
    // intentSelect holds every intent field the hold and the rail need; the agent part adds theirs.
    select: { ...intentSelect, agent: { select: { status: true, wallet: { select: { id: true, walletAddress: true, evmWalletAddress: true } } } } },
  });
  // A quote reads only the payment (no network): the rail, or the step-by-step path fails the intent with its reason.
  const { payment, rail: requested } = toRailPayment(intentId, row);
  let rail: Rail;
  try {
    ({ rail } = await selectRail(rails, requested, payment));
  } catch (error) {
    if (isAppError(error) && error.code === 'RAIL_UNAVAILABLE') return null;
    throw error;
  }
  // Run again after it committed (a worker lost before the workflow recorded the answer).
  if (intent.status === 'processing' && intent.reservedAt !== null) return { ...(await alreadyAuthorized(tx, intent, row)), rail };
  if (intent.status !== 'created') return null;

  const wallet = row.agent.wallet;
  if (row.agent.status !== 'active' || !wallet) return null;

  // Lock order as in reserve: the agent's wallet (inside getOrCreateAgentAccount), then its accounts.
  const agentAccount = await getOrCreateAgentAccount(tx, wallet.id, intent.currency);
  const at = new Date();
  const evaluation = evaluateGate(await loadGateInput(tx, intentId, at), at);
  if (evaluation.decision !== 'allow' || agentAccount.balance < intent.amount) return null;

  const decision = toGateDecision(evaluation, at);
  const policyDecision = decision as unknown as Prisma.InputJsonObject;
  if (decision.shadow.length) log('shadow policies evaluated', { intentId, enforced: decision.decision, shadow: decision.shadow });

  const created = await emitPaymentEvent(tx, { ownerId: intent.ownerId, intentId, type: 'intent.created', intent: toIntentView(row), at });
  const approved = await transitionIntent(tx, intent, { to: 'approved', actor: PAYMENT_WORKFLOW_ACTOR, data: { policyDecision }, audit: gateAudit(decision) });
  // The intent as the transition left it, without reading it again.
  const approvedView = toIntentView({ ...row, status: 'approved', policyDecision: decision as unknown as Prisma.JsonValue, updatedAt: at });
  const approvedEvent = await emitPaymentEvent(tx, { ownerId: intent.ownerId, intentId, type: 'intent.approved', intent: approvedView, at });
  await holdFunds(tx, approved, { ...row, walletId: wallet.id, agentAccountId: agentAccount.id }, { at, policyDecision });
  return { decision, deliveryIds: [...created.deliveryIds, ...approvedEvent.deliveryIds], rail };
}

/** The events exist: emitting again reuses them and answers their deliveries, to start again. */
async function alreadyAuthorized(tx: TransactionClient, intent: LockedIntent, row: IntentRow): Promise<Omit<Authorized, 'rail'>> {
  const deliveryIds: string[] = [];
  for (const type of ['intent.created', 'intent.approved'] as const) {
    deliveryIds.push(...(await emitPaymentEvent(tx, { ownerId: intent.ownerId, intentId: intent.id, type, intent: toIntentView(row) })).deliveryIds);
  }
  return { decision: row.policyDecision as unknown as GateDecision, deliveryIds };
}
