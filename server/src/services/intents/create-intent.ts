/**
 * Creates a payment intent and starts its payment workflow. The intent row, the policy
 * attached in the same call and their audit events commit together; the workflow starts
 * after the commit, keyed by the intent id.
 *
 * Idempotency: (agent, idempotency key) is unique. The same key with the same request
 * returns the first intent (and makes sure its workflow runs); with another request it is
 * 409 IDEMPOTENCY_CONFLICT. Concurrent duplicates block on the unique index until the first
 * commits, then replay it: one intent, one workflow, one payment.
 */
import { randomUUID } from 'node:crypto';
import { AGENT_NOT_FOUND_MESSAGE, AppError, PAYMENT_SESSION_NOT_FOUND_MESSAGE, railToDb, type CreateIntentInput, type IntentView } from '@purser/core';
import { paymentWorkflowId } from '@purser/workflows';
import type { Prisma, TransactionClient } from '@purser/db';
import { appendAuditEvent, withAuditRetry } from '../audit/append-audit-event';
import { isUniqueViolation } from '../ledger/database-error';
import { hashRequest, type Idempotent } from '../idempotency/with-idempotency';
import type { AppDeps } from '../../deps';
import { attachPolicyRow } from './attach-intent-policy';
import { intentSelect, toIntentView } from './intent-view';
import { lockPayingAgent } from './lock-paying-agent';
import { startPaymentWorkflow } from './payment-workflows';
import { findOutboxRow, startFromOutbox } from './workflow-outbox';

/**
 * Who asks for the payment. An agent that called with an OAuth access token pays through that
 * token's connection (`oauthConnectionId`): the connection's cap is checked by the gate.
 */
export type IntentCreator = { ownerId: string; createdBy: 'owner' } | { ownerId: string; createdBy: 'agent'; agentId: string; oauthConnectionId?: string };

/** The creator of an agent's own payment, through the connection its access token belongs to, if any. */
export function agentCreator(agent: { ownerId: string; agentId: string; oauth?: { connectionId: string } }): IntentCreator {
  return { ownerId: agent.ownerId, createdBy: 'agent', agentId: agent.agentId, ...(agent.oauth ? { oauthConnectionId: agent.oauth.connectionId } : {}) };
}

/** The OAuth connection an intent is paid through, if any. */
export function connectionOf(creator: IntentCreator): string | null {
  return creator.createdBy === 'agent' ? (creator.oauthConnectionId ?? null) : null;
}

/** An intent checked and keyed, ready to be written (`insertIntent`) in a transaction. */
export interface PreparedIntent {
  intentId: string;
  creator: IntentCreator;
  input: CreateIntentInput;
  idempotencyKey: string | undefined;
  requestHash: string;
  actor: string;
  /** The agent's wallet, read with the agent. */
  wallet: { id: string; walletAddress: string; evmWalletAddress: string | null };
}

/**
 * Checks the creator and the agent, and finds the intent the idempotency key already names:
 * `existing` when there is one (to replay), else the intent to write.
 */
export async function prepareIntent(
  deps: Pick<AppDeps, 'db'>,
  creator: IntentCreator,
  input: CreateIntentInput,
  options: { idempotencyKey?: string } = {},
): Promise<{ existing: ExistingIntent } | { prepared: PreparedIntent }> {
  if (creator.createdBy === 'agent' && creator.agentId !== input.agentId) throw new AppError('FORBIDDEN', 'An agent creates intents only for itself');
  if (input.idempotencyKey !== undefined && options.idempotencyKey !== undefined && input.idempotencyKey !== options.idempotencyKey) {
    throw new AppError('BAD_REQUEST', 'The Idempotency-Key header and the idempotencyKey field disagree');
  }
  const idempotencyKey = options.idempotencyKey ?? input.idempotencyKey;
  const { idempotencyKey: _key, ...request } = input;
  const requestHash = hashRequest(request);
  const prisma = deps.db.prisma;

  const agent = await prisma.agent.findFirst({
    where: { id: input.agentId, ownerId: creator.ownerId, status: { not: 'deleted' } },
    select: {
      id: true,
      status: true,
      wallet: { select: { id: true, walletAddress: true, evmWalletAddress: true } },
      // The session the owner opened for all of the agent's payments, if one is open (at most one is).
      paymentSessions: { where: { status: 'open', allPayments: true, expiresAt: { gt: new Date() } }, select: { id: true }, orderBy: { createdAt: 'asc' }, take: 1 },
    },
  });
  if (!agent) throw new AppError('NOT_FOUND', AGENT_NOT_FOUND_MESSAGE);
  if (agent.status !== 'active') throw new AppError('AGENT_SUSPENDED', 'Agent is suspended');
  if (!agent.wallet) throw new AppError('CONFLICT', 'This agent does not yet have a wallet.');
  if (input.paymentSessionId !== undefined) {
    // Only one of this agent's own sessions; whether it is open and covers the payment is the gate's.
    const session = await prisma.paymentSession.findFirst({ where: { id: input.paymentSessionId, agentId: agent.id, ownerId: creator.ownerId }, select: { id: true } });
    if (!session) throw new AppError('NOT_FOUND', PAYMENT_SESSION_NOT_FOUND_MESSAGE);
  }
  // An agent's payment that names no session is charged to its all-payments session, if one is
  // open: the gate then holds it to that session's budget, scope and caps like one that names it.
  // The request's hash (its idempotency) is of what the agent sent.
  const allPayments = creator.createdBy === 'agent' && input.paymentSessionId === undefined ? agent.paymentSessions[0] : undefined;
  const charged = allPayments ? { ...input, paymentSessionId: allPayments.id } : input;

  if (idempotencyKey !== undefined) {
    const existing = await findByKey(prisma, agent.id, idempotencyKey);
    if (existing) return { existing: checkedReplay(existing, requestHash) };
  }
  const actor = creator.createdBy === 'owner' ? `owner:${creator.ownerId}` : `agent:${agent.id}`;
  return { prepared: { intentId: randomUUID(), creator, input: charged, idempotencyKey, requestHash, actor, wallet: agent.wallet } };
}

/** The intent row, the policy attached in the same call and their audit events, in `tx`. */
export async function insertIntent(tx: TransactionClient, { intentId, creator, input, idempotencyKey, requestHash, actor }: PreparedIntent) {
  // Under the agent's row lock (lock-paying-agent.ts): an agent suspended since prepareIntent
  // read it gets no intent, and a suspension waits for this one and then sweeps what it signed.
  if ((await lockPayingAgent(tx, input.agentId)) !== 'active') throw new AppError('AGENT_SUSPENDED', 'Agent is suspended');
  const created = await tx.paymentIntent.create({
    data: {
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
      metadata: input.metadata as Prisma.InputJsonObject,
      rail: railToDb(input.rail),
      workflowId: paymentWorkflowId(intentId),
      // A request without a key gets one of its own: every intent has exactly one.
      idempotencyKey: idempotencyKey ?? `auto:${intentId}`,
      requestHash,
      oauthConnectionId: connectionOf(creator),
      paymentSessionId: input.paymentSessionId ?? null,
    },
    select: intentSelect,
  });
  await appendAuditEvent(tx, {
    actor,
    action: 'payment_intent.created',
    subject: `payment_intent:${intentId}`,
    ownerId: creator.ownerId,
    data: { agent_id: input.agentId, amount: created.amount.toString(), currency: input.currency, rail: input.rail, merchant: input.merchant ?? null },
  });
  if (input.policy) await attachPolicyRow(tx, { ownerId: creator.ownerId, agentId: input.agentId, intentId, rules: input.policy, shadow: false, actor });
  return created;
}

/**
 * The intent a concurrent request with the same key committed first, after `write` failed on
 * the unique index; rethrows any other failure.
 */
export async function concurrentDuplicate(deps: Pick<AppDeps, 'db'>, prepared: PreparedIntent, error: unknown): Promise<ExistingIntent> {
  if (prepared.idempotencyKey === undefined || !isUniqueViolation(error)) throw error;
  const existing = await findByKey(deps.db.prisma, prepared.input.agentId, prepared.idempotencyKey);
  if (!existing) throw error;
  return checkedReplay(existing, prepared.requestHash);
}

export async function createIntent(
  deps: Pick<AppDeps, 'db' | 'temporal'>,
  creator: IntentCreator,
  input: CreateIntentInput,
  options: { idempotencyKey?: string } = {},
): Promise<Idempotent<IntentView>> {
  const ready = await prepareIntent(deps, creator, input, options);
  if ('existing' in ready) return replay(deps, ready.existing);
  const { prepared } = ready;
  let row;
  try {
    row = await withAuditRetry(deps.db.prisma, (tx: TransactionClient) => insertIntent(tx, prepared));
  } catch (error) {
    return replay(deps, await concurrentDuplicate(deps, prepared, error));
  }
  await startOrExplain(deps, row);
  return { response: toIntentView(row), replayed: false };
}

/**
 * Starts the intent's workflow. Should Temporal be unreachable, the intent stays `created`
 * (nothing is reserved before its workflow runs) and the caller gets 503: the same request
 * with the same idempotency key starts it; the owner can also cancel it.
 */
async function startOrExplain(deps: Pick<AppDeps, 'temporal'>, intent: { id: string; maxRetries: number }): Promise<void> {
  try {
    await startPaymentWorkflow(deps.temporal, intent);
  } catch (error) {
    throw new AppError('UNAVAILABLE', `The payment engine is unavailable, so payment intent ${intent.id} has not started; nothing was paid. Send the same request with the same Idempotency-Key to start it.`, {
      cause: error,
    });
  }
}

async function findByKey(prisma: AppDeps['db']['prisma'], agentId: string, idempotencyKey: string) {
  return prisma.paymentIntent.findUnique({
    where: { agentId_idempotencyKey: { agentId, idempotencyKey } },
    select: { ...intentSelect, requestHash: true },
  });
}

export type ExistingIntent = NonNullable<Awaited<ReturnType<typeof findByKey>>>;

function checkedReplay(existing: ExistingIntent, requestHash: string): ExistingIntent {
  if (existing.requestHash !== requestHash) {
    throw new AppError('IDEMPOTENCY_CONFLICT', 'This idempotency key was already used for a different request');
  }
  return existing;
}

async function replay(deps: Pick<AppDeps, 'db' | 'temporal'>, existing: ExistingIntent): Promise<Idempotent<IntentView>> {
  // The first request may have stopped between its commit and the start: start it now. One
  // whose start waits in the outbox (an x402 payment) is the relay's to start; nothing to explain.
  const outboxRow = await findOutboxRow(deps, existing.id);
  if (outboxRow) await startFromOutbox(deps, existing.id, outboxRow);
  else await startOrExplain(deps, existing);
  const { requestHash: _hash, ...row } = existing;
  return { response: toIntentView(row), replayed: true };
}
