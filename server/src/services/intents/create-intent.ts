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
import { AGENT_NOT_FOUND_MESSAGE, AppError, railToDb, type CreateIntentInput, type IntentView } from '@purser/core';
import { paymentWorkflowId } from '@purser/workflows';
import type { Prisma, TransactionClient } from '@purser/db';
import { appendAuditEvent, withAuditRetry } from '../audit/append-audit-event';
import { isUniqueViolation } from '../ledger/database-error';
import { hashRequest, type Idempotent } from '../idempotency/with-idempotency';
import type { AppDeps } from '../../deps';
import { attachPolicyRow } from './attach-intent-policy';
import { intentSelect, toIntentView } from './intent-view';
import { startPaymentWorkflow } from './payment-workflows';

export type IntentCreator = { ownerId: string; createdBy: 'owner' } | { ownerId: string; createdBy: 'agent'; agentId: string };

export async function createIntent(
  deps: Pick<AppDeps, 'db' | 'temporal'>,
  creator: IntentCreator,
  input: CreateIntentInput,
  options: { idempotencyKey?: string } = {},
): Promise<Idempotent<IntentView>> {
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
    select: { id: true, status: true, wallet: { select: { id: true } } },
  });
  if (!agent) throw new AppError('NOT_FOUND', AGENT_NOT_FOUND_MESSAGE);
  if (agent.status !== 'active') throw new AppError('AGENT_SUSPENDED', 'Agent is suspended');
  if (!agent.wallet) throw new AppError('CONFLICT', 'This agent does not yet have a wallet.');

  if (idempotencyKey !== undefined) {
    const existing = await findByKey(prisma, agent.id, idempotencyKey);
    if (existing) return replay(deps, existing, requestHash);
  }

  const intentId = randomUUID();
  const actor = creator.createdBy === 'owner' ? `owner:${creator.ownerId}` : `agent:${agent.id}`;
  let row;
  try {
    row = await withAuditRetry(prisma, async (tx: TransactionClient) => {
      const created = await tx.paymentIntent.create({
        data: {
          id: intentId,
          ownerId: creator.ownerId,
          agentId: agent.id,
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
        },
        select: intentSelect,
      });
      await appendAuditEvent(tx, {
        actor,
        action: 'payment_intent.created',
        subject: `payment_intent:${intentId}`,
        ownerId: creator.ownerId,
        data: { agent_id: agent.id, amount: created.amount.toString(), currency: input.currency, rail: input.rail, merchant: input.merchant ?? null },
      });
      if (input.policy) await attachPolicyRow(tx, { ownerId: creator.ownerId, agentId: agent.id, intentId, rules: input.policy, shadow: false, actor });
      return created;
    });
  } catch (error) {
    if (idempotencyKey === undefined || !isUniqueViolation(error)) throw error;
    // A concurrent request with this key committed first.
    const existing = await findByKey(prisma, agent.id, idempotencyKey);
    if (!existing) throw error;
    return replay(deps, existing, requestHash);
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

async function replay(
  deps: Pick<AppDeps, 'temporal'>,
  existing: NonNullable<Awaited<ReturnType<typeof findByKey>>>,
  requestHash: string,
): Promise<Idempotent<IntentView>> {
  if (existing.requestHash !== requestHash) {
    throw new AppError('IDEMPOTENCY_CONFLICT', 'This idempotency key was already used for a different request');
  }
  // The first request may have stopped between its commit and the start: start it now.
  await startOrExplain(deps, existing);
  const { requestHash: _hash, ...row } = existing;
  return { response: toIntentView(row), replayed: true };
}
