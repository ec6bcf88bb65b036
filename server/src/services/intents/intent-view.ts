/**
 * Payment intent rows to the wire shape of core/src/contracts/intents.ts: dollars as a number
 * with the full-precision decimal string beside it, dates as ISO strings, the rail as the API
 * names it and whether it is a sandbox rail, and a paid call's wire protocol (x402 or MPP).
 */
import { policyDecisionView, railFromDb, SANDBOX_RAILS, toDecimalString, toDollars, type IntentView } from '@purser/core';
import type { Prisma } from '@purser/db';
import { paidCallProtocol } from '../paid-calls/describe-rail-operation';

export const intentSelect = {
  id: true,
  ownerId: true,
  agentId: true,
  createdBy: true,
  amount: true,
  currency: true,
  purpose: true,
  merchant: true,
  toAddress: true,
  category: true,
  kyaTier: true,
  geography: true,
  maxRetries: true,
  metadata: true,
  paymentSessionId: true,
  status: true,
  rail: true,
  workflowId: true,
  idempotencyKey: true,
  failureCode: true,
  failureMessage: true,
  policyDecision: true,
  expiresAt: true,
  reservedAt: true,
  settledAt: true,
  createdAt: true,
  updatedAt: true,
  approval: { select: { status: true, reason: true, decidedAt: true, expiresAt: true } },
} as const satisfies Prisma.PaymentIntentSelect;

export type IntentRow = Prisma.PaymentIntentGetPayload<{ select: typeof intentSelect }>;

export function toIntentView(row: IntentRow): IntentView {
  const rail = railFromDb(row.rail ?? 'ledger');
  const decision = policyDecisionView.safeParse(row.policyDecision);
  return {
    id: row.id,
    ownerId: row.ownerId,
    agentId: row.agentId,
    createdBy: row.createdBy,
    amount: toDollars(row.amount),
    amountExact: toDecimalString(row.amount),
    currency: row.currency,
    purpose: row.purpose,
    merchant: row.merchant,
    toAddress: row.toAddress,
    category: row.category,
    kyaTier: row.kyaTier,
    geography: row.geography,
    maxRetries: row.maxRetries,
    metadata: (row.metadata ?? {}) as Record<string, unknown>,
    paymentSessionId: row.paymentSessionId,
    rail,
    protocol: paidCallProtocol(rail, row.metadata),
    sandbox: SANDBOX_RAILS.includes(rail),
    status: row.status,
    failureCode: row.failureCode,
    failureMessage: row.failureMessage,
    policyDecision: decision.success ? decision.data : null,
    approval: row.approval
      ? {
          status: row.approval.status,
          reason: row.approval.reason,
          decidedAt: row.approval.decidedAt?.toISOString() ?? null,
          expiresAt: row.approval.expiresAt.toISOString(),
        }
      : null,
    workflowId: row.workflowId,
    idempotencyKey: row.idempotencyKey,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    reservedAt: row.reservedAt?.toISOString() ?? null,
    settledAt: row.settledAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
