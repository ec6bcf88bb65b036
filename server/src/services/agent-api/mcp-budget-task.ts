/**
 * An agent's budget request as an MCP task (2025-11-25 clients, which poll a task; 2026-07-28
 * clients get input_required instead, mcp-budget-request.ts): the task is the payment session and
 * its id the session's, so any server answers for it from the database. It is working while the
 * request waits for the owner and completed once decided (open, rejected, or closed), with the
 * session as the agent reads it. Only the agent's own sessions are tasks; any other id is
 * NOT_FOUND, as an id that does not exist.
 */
import type { PaymentSessionView } from '@purser/core';
import type { AppDeps } from '../../deps';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import { readAgentPaymentSession } from '../payment-sessions/get-payment-session';
import { toAgentSessionView } from '../payment-sessions/session-view';
import type { PaymentTask } from './mcp-payment-task';

/** How often a waiting call looks again at a request only a person can decide. */
const DECISION_POLL_MS = 500;

export function budgetTaskOf(session: PaymentSessionView): PaymentTask {
  const waiting = session.status === 'requested';
  const view = toAgentSessionView(session);
  return {
    kind: 'budget',
    taskId: session.id,
    state: waiting ? 'working' : 'completed',
    waitingForOwner: waiting,
    statusMessage: view.message,
    createdAt: session.createdAt,
    lastUpdatedAt: session.closedAt ?? session.decidedAt ?? session.createdAt,
    outcome: waiting ? null : { budget: view },
  };
}

/** Where the agent's budget task stands now. */
export async function getBudgetTask(deps: Pick<AppDeps, 'db'>, agent: AuthenticatedAgent, taskId: string): Promise<PaymentTask> {
  return budgetTaskOf(await readAgentPaymentSession(deps, agent, taskId));
}

/** The session once its owner decided, or as it stands after `waitMs`. */
export async function awaitBudgetDecision(
  deps: Pick<AppDeps, 'db'>,
  agent: Pick<AuthenticatedAgent, 'agentId' | 'ownerId'>,
  sessionId: string,
  waitMs: number,
  signal?: AbortSignal,
): Promise<PaymentSessionView> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const session = await readAgentPaymentSession(deps, agent, sessionId);
    if (session.status !== 'requested' || Date.now() >= deadline || signal?.aborted) return session;
    await new Promise((resolve) => setTimeout(resolve, Math.min(DECISION_POLL_MS, Math.max(0, deadline - Date.now()))));
  }
}

/** The budget task once completed, or as it stands after `waitMs` (2025-11-25's blocking tasks/result). */
export async function awaitBudgetTask(deps: Pick<AppDeps, 'db'>, agent: AuthenticatedAgent, taskId: string, waitMs: number): Promise<PaymentTask> {
  return budgetTaskOf(await awaitBudgetDecision(deps, agent, taskId, waitMs));
}
