/**
 * A payment the MCP endpoint answered as a task (the Tasks extension of MCP 2026-07-28, and the
 * tasks of 2025-11-25): the task is the agent's payment intent and its id the intent's id, so
 * every server answers for it from the database and nothing is kept between requests. Only the
 * agent's own make_payment intents are tasks: another agent's id, an owner's intent, an x402
 * payment (whose answer is a signed header, not a payment view) or an id that is not a uuid is
 * NOT_FOUND, as an id that does not exist.
 */
import { AppError, TERMINAL_INTENT_STATUSES, type AgentPaymentSessionView, type AgentPaymentView, type IntentView } from '@purser/core';
import { z } from 'zod';
import type { AppDeps } from '../../deps';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import { awaitIntent } from '../intents/await-intent';
import { intentSelect, toIntentView } from '../intents/intent-view';
import { agentPaymentView, refusalOf } from './intent-outcome';

export interface PaymentTask {
  /** A payment (make_payment) or a budget request (request_budget, mcp-budget-task.ts). */
  kind: 'payment' | 'budget';
  /** The payment intent's id, or the payment session's. */
  taskId: string;
  /** Working until the intent is final; then completed, with the answer the call would have given. */
  state: 'working' | 'completed';
  /** The intent waits for its owner's decision (a person, so polling can be slow). */
  waitingForOwner: boolean;
  statusMessage: string;
  createdAt: string;
  lastUpdatedAt: string;
  /**
   * Once completed: the settled payment, or the refusal (the call's isError answer); for a budget
   * request (mcp-budget-task.ts), the session as the owner decided it.
   */
  outcome: { payment: AgentPaymentView } | { refusal: AppError } | { budget: AgentPaymentSessionView } | null;
}

const NOT_FOUND = 'This agent has no such payment task';

export function paymentTaskOf(intent: IntentView): PaymentTask {
  const final = TERMINAL_INTENT_STATUSES.includes(intent.status);
  const refusal = final ? refusalOf(intent) : null;
  const payment = agentPaymentView(intent);
  return {
    kind: 'payment',
    taskId: intent.id,
    state: final ? 'completed' : 'working',
    waitingForOwner: intent.status === 'pending_approval',
    statusMessage: refusal
      ? refusal.message
      : intent.status === 'pending_approval'
        ? `The payment of ${intent.amountExact} ${intent.currency} waits for the owner to approve it`
        : intent.status === 'settled'
          ? 'Settled'
          : 'The payment is being processed',
    createdAt: intent.createdAt,
    lastUpdatedAt: intent.updatedAt,
    outcome: !final ? null : refusal ? { refusal } : { payment },
  };
}

async function readAgentIntent(deps: Pick<AppDeps, 'db'>, agent: AuthenticatedAgent, taskId: string): Promise<IntentView> {
  // Not a uuid: nobody's task (and the database would refuse the comparison).
  if (!z.uuid().safeParse(taskId).success) throw new AppError('NOT_FOUND', NOT_FOUND);
  const row = await deps.db.prisma.paymentIntent.findFirst({
    where: { id: taskId, ownerId: agent.ownerId, agentId: agent.agentId, createdBy: 'agent' },
    select: intentSelect,
  });
  const intent = row ? toIntentView(row) : null;
  if (!intent || intent.rail === 'x402-base') throw new AppError('NOT_FOUND', NOT_FOUND);
  return intent;
}

/** Where the agent's payment task stands now. */
export async function getPaymentTask(deps: Pick<AppDeps, 'db'>, agent: AuthenticatedAgent, taskId: string): Promise<PaymentTask> {
  return paymentTaskOf(await readAgentIntent(deps, agent, taskId));
}

/** The task once it is completed, or as it stands after `waitMs` (2025-11-25's blocking tasks/result). */
export async function awaitPaymentTask(
  deps: Pick<AppDeps, 'db' | 'events'>,
  agent: AuthenticatedAgent,
  taskId: string,
  waitMs: number,
): Promise<PaymentTask> {
  const intent = await readAgentIntent(deps, agent, taskId);
  if (TERMINAL_INTENT_STATUSES.includes(intent.status)) return paymentTaskOf(intent);
  const { intent: latest } = await awaitIntent(deps.db.prisma, agent.ownerId, taskId, (current) => TERMINAL_INTENT_STATUSES.includes(current.status), waitMs, {
    events: deps.events,
  });
  return paymentTaskOf(latest);
}
