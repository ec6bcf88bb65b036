/**
 * One payment session with what it spent: for its owner (console, REST, tRPC), and for its agent
 * (GET /budget/{session_id}, the get_budget MCP tool), which sees its own sessions only. Any other
 * id is the same 404.
 */
import type { AgentPaymentSessionView, PaymentSessionView } from '@purser/core';
import type { AppDeps } from '../../deps';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import { isUuid } from '../agents/owned-agent';
import { sessionNotFound, sessionSelect, toAgentSessionView, viewSession } from './session-view';

type ReadDeps = Pick<AppDeps, 'db'>;

export async function getPaymentSession(deps: ReadDeps, ownerId: string, sessionId: string): Promise<PaymentSessionView> {
  return readSession(deps, { ownerId, sessionId });
}

export async function getAgentPaymentSession(deps: ReadDeps, agent: Pick<AuthenticatedAgent, 'agentId' | 'ownerId'>, sessionId: string): Promise<AgentPaymentSessionView> {
  return toAgentSessionView(await readAgentPaymentSession(deps, agent, sessionId));
}

/** The agent's own session in the owner's shape (its decision and close times), for an MCP task. */
export function readAgentPaymentSession(deps: ReadDeps, agent: Pick<AuthenticatedAgent, 'agentId' | 'ownerId'>, sessionId: string): Promise<PaymentSessionView> {
  return readSession(deps, { ownerId: agent.ownerId, agentId: agent.agentId, sessionId });
}

async function readSession(deps: ReadDeps, where: { ownerId: string; agentId?: string; sessionId: string }): Promise<PaymentSessionView> {
  if (![where.ownerId, where.sessionId, where.agentId ?? where.ownerId].every(isUuid)) throw sessionNotFound();
  const { prisma } = deps.db;
  const row = await prisma.paymentSession.findFirst({
    where: { id: where.sessionId, ownerId: where.ownerId, ...(where.agentId ? { agentId: where.agentId } : {}) },
    select: sessionSelect,
  });
  if (!row) throw sessionNotFound();
  return viewSession(prisma, row);
}
