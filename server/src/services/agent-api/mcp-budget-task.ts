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

/**
 * The session once its owner decided (or it closed), or as it stands after `waitMs` or at its
 * expiry, whichever comes first. It waits on the owner's payment_sessions notices (event-bus.ts:
 * every decision, revocation and close sends one in its transaction, heard on commit, from any
 * replica), reading the session again on each of this session's and on every 'sync'; a notice is
 * only a reason to read. Nothing is read while no one acts.
 */
export async function awaitBudgetDecision(
  deps: Pick<AppDeps, 'db' | 'events'>,
  agent: Pick<AuthenticatedAgent, 'agentId' | 'ownerId'>,
  sessionId: string,
  waitMs: number,
  signal?: AbortSignal,
): Promise<PaymentSessionView> {
  const first = await readAgentPaymentSession(deps, agent, sessionId);
  const waitFor = Math.min(waitMs, Date.parse(first.expiresAt) - Date.now());
  if (first.status !== 'requested' || waitFor <= 0 || signal?.aborted) return first;
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), waitFor);
  const onAbort = () => stop.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const message of deps.events.subscribe({ ownerId: agent.ownerId, topics: ['payment_sessions'], signal: stop.signal })) {
      if (message.type === 'event' && message.event.sessionId !== sessionId) continue;
      const session = await readAgentPaymentSession(deps, agent, sessionId);
      if (session.status !== 'requested') return session;
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  // The wait or the request ran out: as it stands now (closed, expired, once past its expiry).
  return readAgentPaymentSession(deps, agent, sessionId);
}

/** The budget task once completed, or as it stands after `waitMs` (2025-11-25's blocking tasks/result). */
export async function awaitBudgetTask(deps: Pick<AppDeps, 'db' | 'events'>, agent: AuthenticatedAgent, taskId: string, waitMs: number): Promise<PaymentTask> {
  return budgetTaskOf(await awaitBudgetDecision(deps, agent, taskId, waitMs));
}
