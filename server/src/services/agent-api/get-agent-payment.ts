/**
 * GET /payment/{intentId} and GET /payment?idempotency_key=…: where one of the agent's own
 * payments stands, as POST /payment answers it. A read: nothing is paid, and a payment that was
 * refused, rejected or expired answers with its status and failure rather than as an error.
 * Another agent's payment, or an owner's, is NOT_FOUND, as an id that does not exist.
 */
import { AppError, type AgentPaymentView } from '@purser/core';
import type { AppDeps } from '../../deps';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import { intentSelect, toIntentView } from '../intents/intent-view';
import { agentPaymentView } from './intent-outcome';

export async function getAgentPayment(
  deps: Pick<AppDeps, 'db'>,
  agent: AuthenticatedAgent,
  by: { intentId: string } | { idempotencyKey: string },
): Promise<AgentPaymentView> {
  const row = await deps.db.prisma.paymentIntent.findFirst({
    where: {
      ownerId: agent.ownerId,
      agentId: agent.agentId,
      createdBy: 'agent',
      ...('intentId' in by ? { id: by.intentId } : { idempotencyKey: by.idempotencyKey }),
    },
    select: intentSelect,
  });
  if (!row) throw new AppError('NOT_FOUND', 'This agent has no such payment');
  return agentPaymentView(toIntentView(row));
}
