/**
 * authorizePayment: the front of a payment in one database transaction, whatever its outcome.
 * Under the intent's row lock and the agent wallet's lock (so a burst of one agent's payments
 * queues here and each sees the ones before it), it evaluates the policy and KYA gate with the
 * usage read there, records the decision on the intent and, when the payment may go on, takes
 * the rail's quote and holds the funds. Every transition appends its audit entry, and the
 * events it emits (intent.created, intent.approved, policy.violation) have their webhook
 * deliveries started after the commit.
 *
 *   created / pending_approval --gate--> blocked (denied) | pending_approval (approval open)
 *                                        | approved --> failed (no rail, suspended, too little money)
 *                                                   --> processing (funds held)
 *   approved (the owner approved) --the gate again, the rail, the hold--> the same ends
 *
 * Funds are held only inside the workflow: an intent whose workflow never started holds nothing.
 */
import {
  isAppError,
  PAYMENT_WORKFLOW_ACTOR,
  evaluateGate,
  toGateDecision,
  type AuthorizeOutcome,
  type GateDecision,
  type IntentStatus,
  type RailName,
  type RefusedAt,
} from '@purser/core';
import type { Prisma, PrismaClient, TransactionClient } from '@purser/db';
import { DEFAULT_APPROVAL_TIME_BOX_MS } from '@purser/workflows';
import { withAuditRetry } from '../audit/append-audit-event';
import { getOrCreateAgentAccount } from '../ledger/post-ledger-transaction';
import { intentSelect, toIntentView } from '../intents/intent-view';
import { lockIntent, transitionIntent, type LockedIntent } from '../intents/transition-intent';
import type { RailsByName } from '../rail-operations/rail';
import { selectRail, type Rails } from '../rails/create-rails';
import { emitPaymentEvent } from '../webhooks/emit-payment-event';
import { openApproval } from './approval-steps';
import { gateAudit, loadGateInput } from './gate-inputs';
import { toRailPayment } from './rail-steps';
import { drawableFromReserve, drawFromReserve } from '../payment-sessions/session-reserve';
import { holdFunds } from './hold-funds';
import { lockPayingAgent } from '../intents/lock-paying-agent';
import { countGateDecision } from '../../metrics/metrics';

export interface AuthorizeDeps {
  prisma: PrismaClient;
  rails: Rails;
  /** Starts the webhook deliveries of the events, after the commit. */
  startDeliveries: (deliveryIds: string[]) => Promise<void>;
  log: (message: string, data: object) => void;
}

/** The statuses at the front of a payment; any other has left it. */
const AT_THE_FRONT: readonly IntentStatus[] = ['created', 'pending_approval', 'approved'];

export async function authorizePayment({ prisma, rails, startDeliveries, log }: AuthorizeDeps, intentId: string): Promise<AuthorizeOutcome> {
  const { outcome, deliveryIds } = await withAuditRetry(prisma, (tx) => new Front(tx, rails, log).authorize(intentId));
  await startDeliveries(deliveryIds);
  return outcome;
}

/**
 * The front in a transaction of the caller's: an x402 payment is authorised in the agent's own
 * request, together with its intent, signature and outbox row
 * (services/paid-calls/front/pay-in-request.ts). The caller starts the deliveries of the events
 * once the transaction has committed.
 */
export function authorizeInTransaction(tx: TransactionClient, rails: RailsByName, log: AuthorizeDeps['log'], intentId: string): Promise<{ outcome: AuthorizeOutcome; deliveryIds: string[] }> {
  return new Front(tx, rails, log).authorize(intentId);
}

const frontRowSelect = {
  ...intentSelect,
  agent: { select: { status: true, wallet: { select: { id: true, walletAddress: true, evmWalletAddress: true } } } },
  approval: { select: { status: true, reason: true, decidedAt: true, expiresAt: true, createdAt: true } },
} as const satisfies Prisma.PaymentIntentSelect;
type FrontRow = Prisma.PaymentIntentGetPayload<{ select: typeof frontRowSelect }>;
type Failure = { code: string; message: string };
type Quote = { rail: { rail: RailName; sandbox: boolean } } | { unavailable: Failure };

/** One run of the front: its transaction, and the deliveries of the events it emitted. */
class Front {
  private readonly deliveryIds: string[] = [];

  constructor(
    private readonly tx: TransactionClient,
    private readonly rails: RailsByName,
    private readonly log: AuthorizeDeps['log'],
  ) {}

  async authorize(intentId: string): Promise<{ outcome: AuthorizeOutcome; deliveryIds: string[] }> {
    const outcome = await this.decide(intentId);
    return { outcome, deliveryIds: this.deliveryIds };
  }

  private async decide(intentId: string): Promise<AuthorizeOutcome> {
    const { tx } = this;
    let intent = await lockIntent(tx, intentId);
    // The agent's row next (lock-paying-agent.ts): a suspension committed before this read is
    // seen, and one that comes later waits for this transaction and then sweeps what it signed.
    const agentStatus = await lockPayingAgent(tx, intent.agentId);
    const read = await tx.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: frontRowSelect });
    const row: FrontRow = { ...read, agent: { ...read.agent, status: agentStatus === 'gone' ? 'deleted' : agentStatus } };
    // A quote reads only the payment (no network).
    const quote = await this.quote(intentId, row);
    // Run again after it committed (a worker lost before the workflow recorded the answer).
    if (intent.status === 'processing' && intent.reservedAt !== null) return this.alreadyAuthorized(intent, row, quote);
    if (!AT_THE_FRONT.includes(intent.status)) return { outcome: 'ended', status: intent.status };

    const approvedByOwner = intent.status === 'approved';
    if (intent.status === 'created') await this.emit(intent, 'intent.created', toIntentView(row));
    // After the owner's approval the payment is approved whatever follows, as the owner saw it.
    if (approvedByOwner) await this.emit(intent, 'intent.approved', toIntentView(row));

    // Lock order as everywhere: the agent's wallet (inside getOrCreateAgentAccount), then its accounts.
    const wallet = row.agent.wallet;
    const agentAccount = wallet ? await getOrCreateAgentAccount(tx, wallet.id, intent.currency) : null;
    const at = new Date();
    const evaluation = evaluateGate(await loadGateInput(tx, intentId, at), at);
    countGateDecision(evaluation);
    const decision = toGateDecision(evaluation, at);
    const policyDecision = decision as unknown as Prisma.InputJsonObject;
    if (decision.shadow.length) this.log('shadow policies evaluated', { intentId, enforced: decision.decision, shadow: decision.shadow });
    const refused = (status: 'blocked' | 'failed', refusedAt: RefusedAt, failure: Failure): AuthorizeOutcome => ({
      outcome: 'refused',
      status,
      at: refusedAt,
      decision,
      rail: 'rail' in quote ? quote.rail : null,
      failure,
    });

    if (evaluation.decision === 'deny') {
      const denial = evaluation.fired.find((rule) => !rule.shadow && rule.outcome === 'deny');
      const failure = { code: denial?.code ?? 'POLICY_VIOLATION', message: denial?.message ?? 'Refused by policy' };
      await transitionIntent(tx, intent, {
        to: 'blocked',
        actor: PAYMENT_WORKFLOW_ACTOR,
        data: { policyDecision, failureCode: failure.code, failureMessage: failure.message },
        audit: approvedByOwner ? { reason: failure.code } : gateAudit(decision),
      });
      await this.emit(intent, 'policy.violation', await this.view(intentId));
      return refused('blocked', approvedByOwner ? 'reserve' : 'policy_gate', failure);
    }
    if (evaluation.decision === 'require_approval' && row.approval?.status !== 'approved') {
      return this.awaitApproval(intent, row, decision);
    }
    if (!approvedByOwner) {
      intent = await transitionIntent(tx, intent, { to: 'approved', actor: PAYMENT_WORKFLOW_ACTOR, data: { policyDecision }, audit: gateAudit(decision) });
      // The intent as the transition left it, without reading it again.
      await this.emit(intent, 'intent.approved', toIntentView({ ...row, status: 'approved', policyDecision: policyDecision as Prisma.JsonValue, updatedAt: at }));
    }

    if ('unavailable' in quote) {
      await this.fail(intent, quote.unavailable, { policyDecision });
      return refused('failed', 'rail_selection', quote.unavailable);
    }
    // A session that set its budget aside pays from it (session-reserve.ts): drawn back to the
    // agent and held for the payment in this transaction, under the wallet's lock.
    const drawable = await drawableFromReserve(tx, row.paymentSessionId, intent.currency, intent.amount);
    const funds = fundsFor(row, agentAccount && { ...agentAccount, balance: agentAccount.balance + drawable }, intent.amount);
    if ('failure' in funds) {
      await this.fail(intent, funds.failure, { policyDecision }, { reason: funds.failure.code });
      return refused('failed', 'reserve', funds.failure);
    }

    if (drawable > 0n) await drawFromReserve(tx, { id: intent.id, paymentSessionId: row.paymentSessionId! }, funds, drawable);
    await holdFunds(tx, intent, { ...row, ...funds }, { at, policyDecision });
    return { outcome: 'authorized', decision, ...quote.rail };
  }

  /** The rail that would carry the payment, or why none can. */
  private async quote(intentId: string, row: FrontRow): Promise<Quote> {
    const { payment, rail: requested } = toRailPayment(intentId, row);
    try {
      const { rail } = await selectRail(this.rails, requested, payment);
      return { rail: { rail: rail.name, sandbox: rail.sandbox } };
    } catch (error) {
      if (isAppError(error) && error.code === 'RAIL_UNAVAILABLE') return { unavailable: { code: error.code, message: error.message } };
      throw error;
    }
  }

  /**
   * The intent waits for its owner: pending_approval with the decision recorded and its approval
   * open until the time box runs out. The box counts from when the wait began: a new intent's
   * now; a waiting one's (a policy changed meanwhile) when its approval opened, with the time
   * box the policies set now; an approved one that limits sent back, now again.
   */
  private async awaitApproval(intent: LockedIntent, row: FrontRow, decision: GateDecision): Promise<AuthorizeOutcome> {
    const policyDecision = decision as unknown as Prisma.InputJsonObject;
    const opened = intent.status === 'pending_approval' && row.approval ? row.approval.createdAt : new Date(decision.evaluatedAt);
    const expiresAt = new Date(opened.getTime() + (decision.timeBoxMs ?? DEFAULT_APPROVAL_TIME_BOX_MS));
    if (intent.status === 'pending_approval') {
      await this.tx.paymentIntent.update({ where: { id: intent.id }, data: { policyDecision }, select: { id: true } });
    } else {
      const audit = intent.status === 'approved' ? { reason: 'limits changed since the gate' } : gateAudit(decision);
      await transitionIntent(this.tx, intent, { to: 'pending_approval', actor: PAYMENT_WORKFLOW_ACTOR, data: { policyDecision }, audit });
    }
    // The approval exists as soon as the intent waits for it, so an owner can decide at once.
    await openApproval(this.tx, intent.id, expiresAt, opened);
    return { outcome: 'needs_approval', decision, expiresAt: expiresAt.toISOString() };
  }

  private async fail(intent: LockedIntent, failure: Failure, data: Prisma.PaymentIntentUpdateInput, audit?: { reason: string }) {
    await transitionIntent(this.tx, intent, {
      to: 'failed',
      actor: PAYMENT_WORKFLOW_ACTOR,
      data: { ...data, failureCode: failure.code, failureMessage: failure.message },
      ...(audit ? { audit } : {}),
    });
  }

  /** The events exist: emitting again reuses them and answers their deliveries, to start again. */
  private async alreadyAuthorized(intent: LockedIntent, row: FrontRow, quote: Quote): Promise<AuthorizeOutcome> {
    for (const type of ['intent.created', 'intent.approved'] as const) await this.emit(intent, type, toIntentView(row));
    // The hold was taken with this quote; a rail gone since fails at execute, which releases it.
    const rail = 'rail' in quote ? quote.rail : { rail: toRailPayment(intent.id, row).rail as RailName, sandbox: false };
    return { outcome: 'authorized', decision: row.policyDecision as unknown as GateDecision, ...rail };
  }

  private async emit(intent: LockedIntent, type: 'intent.created' | 'intent.approved' | 'policy.violation', view: ReturnType<typeof toIntentView>) {
    const emitted = await emitPaymentEvent(this.tx, { ownerId: intent.ownerId, intentId: intent.id, type, intent: view });
    this.deliveryIds.push(...emitted.deliveryIds);
  }

  private async view(intentId: string) {
    return toIntentView(await this.tx.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: intentSelect }));
  }
}

/** The accounts the hold moves between, or why the agent cannot pay. */
function fundsFor(row: FrontRow, account: { id: string; balance: bigint } | null, amount: bigint): { walletId: string; agentAccountId: string } | { failure: Failure } {
  const { status, wallet } = row.agent;
  if (status !== 'active') return { failure: { code: 'AGENT_SUSPENDED', message: `The agent is ${status}` } };
  if (!wallet || !account) return { failure: { code: 'INSUFFICIENT_FUNDS', message: 'The agent has no wallet' } };
  if (account.balance < amount) return { failure: { code: 'INSUFFICIENT_FUNDS', message: 'Insufficient balance' } };
  return { walletId: wallet.id, agentAccountId: account.id };
}
