/**
 * A payment session as its owner and its agent see it (core's paymentSessionView and
 * agentPaymentSessionView), and as the budget.* webhooks carry it. An `open` session past its
 * expiry, or whose payments reached its total, reads as closed (expired, spent) before anything
 * writes it so: the view says what the gate will do, the row is left as it is. So does a
 * `requested` one past the expiry it asked for: no one can grant it any more, and its timer
 * (session-expiry.ts) is about to close it.
 */
import type { TransactionClient } from '@purser/db';
import {
  agentPaymentSessionMessage,
  AppError,
  PAYMENT_SESSION_CLOSE_REASONS,
  PAYMENT_SESSION_NOT_FOUND_MESSAGE,
  paymentSessionScopeSchema,
  toDecimalString,
  toDollars,
  type AgentPaymentSessionView,
  type AgentRequestedPaymentSessionView,
  type PaymentSessionCloseReason,
  type PaymentSessionStatus,
  type PaymentSessionView,
} from '@purser/core';
import { spentFromSession } from './session-spend';

export const sessionSelect = {
  id: true,
  agentId: true,
  status: true,
  requestedBy: true,
  reason: true,
  totalUnits: true,
  perPaymentUnits: true,
  scope: true,
  expiresAt: true,
  decisionNote: true,
  decidedAt: true,
  closedReason: true,
  closedAt: true,
  allPayments: true,
  reserve: true,
  reservedUnits: true,
  createdAt: true,
} as const;

export interface SessionRow {
  id: string;
  agentId: string;
  status: PaymentSessionStatus;
  requestedBy: 'owner' | 'agent';
  reason: string | null;
  totalUnits: bigint;
  perPaymentUnits: bigint | null;
  scope: unknown;
  expiresAt: Date;
  decisionNote: string | null;
  decidedAt: Date | null;
  closedReason: string | null;
  closedAt: Date | null;
  allPayments: boolean;
  reserve: boolean;
  reservedUnits: bigint;
  createdAt: Date;
}

export function sessionNotFound(): AppError {
  return new AppError('NOT_FOUND', PAYMENT_SESSION_NOT_FOUND_MESSAGE);
}

/**
 * Refuses (409) to decide, or link to, a budget request that no longer waits: one decided or
 * closed, or one past the expiry it asked for (it reads closed, expired).
 */
export function assertRequestWaiting(row: Pick<SessionRow, 'status' | 'expiresAt'>, now: Date): void {
  if (row.status !== 'requested') throw new AppError('CONFLICT', `This budget request was already decided (it is ${row.status})`);
  if (row.expiresAt.getTime() <= now.getTime()) throw new AppError('CONFLICT', 'This budget request expired before it was decided; the agent can ask again');
}

const reasonOf = (reason: string | null): PaymentSessionCloseReason | null =>
  (PAYMENT_SESSION_CLOSE_REASONS as readonly string[]).includes(reason ?? '') ? (reason as PaymentSessionCloseReason) : null;

/** Where the session stands at `now`: as stored, but an open one that ran out, or a request left undecided past its expiry, reads closed. */
function standing(row: SessionRow, spentUnits: bigint, now: Date): { status: PaymentSessionStatus; closedReason: PaymentSessionCloseReason | null; closedAt: Date | null } {
  const expired = row.expiresAt.getTime() <= now.getTime();
  if ((row.status === 'open' || row.status === 'requested') && expired) return { status: 'closed', closedReason: 'expired', closedAt: row.expiresAt };
  if (row.status === 'open' && spentUnits >= row.totalUnits) return { status: 'closed', closedReason: 'spent', closedAt: null };
  return { status: row.status, closedReason: reasonOf(row.closedReason), closedAt: row.closedAt };
}

/** The view of a session that spent `spentUnits` (session-spend.ts). */
export function toSessionView(row: SessionRow, spentUnits: bigint, now = new Date()): PaymentSessionView {
  const { status, closedReason, closedAt } = standing(row, spentUnits, now);
  const remainingUnits = spentUnits >= row.totalUnits ? 0n : row.totalUnits - spentUnits;
  return {
    id: row.id,
    agentId: row.agentId,
    status,
    requestedBy: row.requestedBy,
    reason: row.reason,
    total: toDollars(row.totalUnits),
    totalExact: toDecimalString(row.totalUnits),
    perPaymentMax: row.perPaymentUnits === null ? null : toDollars(row.perPaymentUnits),
    perPaymentMaxExact: row.perPaymentUnits === null ? null : toDecimalString(row.perPaymentUnits),
    spent: toDollars(spentUnits),
    spentExact: toDecimalString(spentUnits),
    remaining: toDollars(remainingUnits),
    remainingExact: toDecimalString(remainingUnits),
    // Stored through the contract, so it parses; a row written otherwise reads as unscoped.
    scope: paymentSessionScopeSchema.catch({}).parse(row.scope),
    expiresAt: row.expiresAt.toISOString(),
    decisionNote: row.decisionNote,
    closedReason,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    closedAt: closedAt?.toISOString() ?? null,
    allPayments: row.allPayments,
    reserve: row.reserve,
    reserved: toDollars(row.reservedUnits),
    reservedExact: toDecimalString(row.reservedUnits),
  };
}

/** The view of one session, with what it spent read in `db` (a transaction's, for an event it emits). */
export async function viewSession(db: Pick<TransactionClient, '$queryRaw'>, row: SessionRow, now = new Date()): Promise<PaymentSessionView> {
  return toSessionView(row, await spentFromSession(db, row.id), now);
}

/** A request as the agent gets it back: the session, and the one-time link its owner decides it from. */
export type RequestedPaymentSession = PaymentSessionView & { approvalUrl: string };

/**
 * The agent's side of a view: snake_case, with what to do next; with `approval_url` only when the
 * view carries the link just minted (the answer to the agent's request).
 */
export function toAgentSessionView(session: RequestedPaymentSession): AgentRequestedPaymentSessionView;
export function toAgentSessionView(session: PaymentSessionView): AgentPaymentSessionView;
export function toAgentSessionView(session: PaymentSessionView & { approvalUrl?: string }): AgentPaymentSessionView {
  return {
    session_id: session.id,
    status: session.status,
    total: session.total,
    total_exact: session.totalExact,
    per_payment_max: session.perPaymentMax,
    per_payment_max_exact: session.perPaymentMaxExact,
    spent: session.spent,
    spent_exact: session.spentExact,
    remaining: session.remaining,
    remaining_exact: session.remainingExact,
    scope: session.scope,
    expires_at: session.expiresAt,
    reason: session.reason,
    decision_note: session.decisionNote,
    closed_reason: session.closedReason,
    created_at: session.createdAt,
    all_payments: session.allPayments,
    message: agentPaymentSessionMessage(session),
    ...(session.approvalUrl === undefined ? {} : { approval_url: session.approvalUrl }),
  };
}
