/**
 * POST /payment: an agent pays from its own wallet. The payment is a payment intent created
 * by the agent and run by the payment workflow (gate, approval, reserve, rail, capture), so it
 * obeys the same spending rules, policies and KYA caps as any other. The call answers when the
 * payment settles, or with 202 when it waits for the owner; a refusal is its AppError.
 * The Idempotency-Key makes a retried call return the same payment, never a second one.
 */
import type { AgentPaymentInput, AgentPaymentView } from '@purser/core';
import type { AppDeps } from '../../deps';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import { awaitIntent } from '../intents/await-intent';
import { agentCreator, createIntent } from '../intents/create-intent';
import { agentPaymentView, isAnswerable, PAYMENT_WAIT_MS, refusalOf } from './intent-outcome';

export async function makeAgentPayment(
  deps: Pick<AppDeps, 'db' | 'temporal' | 'events'>,
  agent: AuthenticatedAgent,
  input: AgentPaymentInput,
  options: { idempotencyKey?: string; waitMs?: number } = {},
): Promise<{ payment: AgentPaymentView; settled: boolean; replayed: boolean }> {
  const created = await createIntent(
    deps,
    agentCreator(agent),
    {
      agentId: agent.agentId,
      amount: input.amount,
      currency: input.currency,
      purpose: input.description,
      toAddress: input.to_address,
      category: input.category,
      metadata: input.metadata,
      rail: input.rail,
      maxRetries: 3,
      idempotencyKey: input.idempotency_key,
      paymentSessionId: input.session_id,
    },
    { idempotencyKey: options.idempotencyKey },
  );
  const { intent } = await awaitIntent(deps.db.prisma, agent.ownerId, created.response.id, isAnswerable, options.waitMs ?? PAYMENT_WAIT_MS, {
    events: deps.events,
  });
  const refusal = refusalOf(intent);
  if (refusal) throw refusal;
  return { payment: agentPaymentView(intent), settled: intent.status === 'settled', replayed: created.replayed };
}
