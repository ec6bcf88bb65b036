/**
 * Lists of payment sessions, newest first, with what each spent summed in one query: the owner's
 * (every agent of theirs, or one, optionally in one status; PAYMENT_SESSION_LIST_LIMIT at most)
 * and an agent's own (GET /budgets; AGENT_PAYMENT_SESSION_LIST_LIMIT at most). An agent id that
 * is not one of the owner's live agents is a 404.
 *
 * The status filter means the status a view shows: an open session, or a request, past its expiry
 * is listed as closed, not open or requested. One whose payments reached its total is told apart
 * only once its spend is read, so it is left out of `open` but may be missing from `closed` until
 * the gate closes it.
 */
import {
  AGENT_PAYMENT_SESSION_LIST_LIMIT,
  PAYMENT_SESSION_LIST_LIMIT,
  type AgentPaymentSessionListView,
  type ListPaymentSessionsInput,
  type PaymentSessionListView,
  type PaymentSessionStatus,
} from '@purser/core';
import type { Prisma } from '@purser/db';
import type { AppDeps } from '../../deps';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import { agentNotFound, assertUuids, ownedAgentWhere } from '../agents/owned-agent';
import { spentBySessions } from './session-spend';
import { sessionSelect, toAgentSessionView, toSessionView } from './session-view';

type ReadDeps = Pick<AppDeps, 'db'>;

export async function listPaymentSessions(deps: ReadDeps, ownerId: string, input: ListPaymentSessionsInput, now = new Date()): Promise<PaymentSessionListView> {
  assertUuids(ownerId, ...(input.agentId ? [input.agentId] : []));
  if (input.agentId && !(await deps.db.prisma.agent.findFirst({ where: ownedAgentWhere(ownerId, input.agentId), select: { id: true } }))) throw agentNotFound();
  const where: Prisma.PaymentSessionWhereInput = { ownerId, ...(input.agentId ? { agentId: input.agentId } : {}), ...statusWhere(input.status, now) };
  const sessions = await listViews(deps, where, PAYMENT_SESSION_LIST_LIMIT, now);
  return { sessions: input.status ? sessions.filter((session) => session.status === input.status) : sessions };
}

export async function listAgentPaymentSessions(deps: ReadDeps, agent: Pick<AuthenticatedAgent, 'agentId' | 'ownerId'>, now = new Date()): Promise<AgentPaymentSessionListView> {
  const sessions = await listViews(deps, { ownerId: agent.ownerId, agentId: agent.agentId }, AGENT_PAYMENT_SESSION_LIST_LIMIT, now);
  return { budgets: sessions.map(toAgentSessionView) };
}

/** The rows of a status as a view shows it: open ones and requests past their expiry count as closed. */
function statusWhere(status: PaymentSessionStatus | undefined, now: Date): Prisma.PaymentSessionWhereInput {
  if (status === 'open' || status === 'requested') return { status, expiresAt: { gt: now } };
  if (status === 'closed') return { OR: [{ status: 'closed' }, { status: { in: ['open', 'requested'] }, expiresAt: { lte: now } }] };
  return status ? { status } : {};
}

async function listViews(deps: ReadDeps, where: Prisma.PaymentSessionWhereInput, take: number, now: Date) {
  const { prisma } = deps.db;
  const rows = await prisma.paymentSession.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take, select: sessionSelect });
  const spent = await spentBySessions(prisma, rows.map((row) => row.id));
  return rows.map((row) => toSessionView(row, spent.get(row.id) ?? 0n, now));
}
