/**
 * The rail steps of a payment after its front (authorize-payment.ts quoted the rail): execute
 * on it, and follow a pending operation until it settles or is declined. A decline is a
 * non-retryable PAYMENT_DECLINED; the workflow then releases the held funds.
 */
import { AppError, INTENT_NOT_FOUND_MESSAGE, railFromDb, type RailStepResult } from '@purser/core';
import type { Prisma, PrismaClient } from '@purser/db';
import { selectRail, type Rails } from '../rails/create-rails';
import { recordOperationOnce } from '../rail-operations/operation-record';
import { declinedError, type RailPayment, type RailResult } from '../rail-operations/rail';

/** What a rail needs of an intent, to quote or execute it. */
export const railPaymentSelect = {
  amount: true,
  currency: true,
  toAddress: true,
  merchant: true,
  geography: true,
  metadata: true,
  rail: true,
  agentId: true,
  agent: { select: { wallet: { select: { walletAddress: true, evmWalletAddress: true } } } },
} as const satisfies Prisma.PaymentIntentSelect;

export function toRailPayment(intentId: string, intent: Prisma.PaymentIntentGetPayload<{ select: typeof railPaymentSelect }>): { payment: RailPayment; rail: string } {
  const wallet = intent.agent.wallet;
  return {
    rail: railFromDb(intent.rail ?? 'ledger'),
    payment: {
      intentId,
      amount: intent.amount,
      currency: intent.currency,
      toAddress: intent.toAddress,
      merchant: intent.merchant,
      geography: intent.geography,
      metadata: (intent.metadata ?? {}) as Record<string, unknown>,
      payer: { agentId: intent.agentId, walletAddress: wallet?.walletAddress ?? '', evmAddress: wallet?.evmWalletAddress ?? null },
    },
  };
}

export async function railPaymentOf(prisma: PrismaClient, intentId: string): Promise<{ payment: RailPayment; rail: string }> {
  const intent = await prisma.paymentIntent.findUnique({ where: { id: intentId }, select: railPaymentSelect });
  if (!intent) throw new AppError('NOT_FOUND', INTENT_NOT_FOUND_MESSAGE);
  return toRailPayment(intentId, intent);
}

export async function executeOnRail(prisma: PrismaClient, rails: Rails, intentId: string): Promise<RailStepResult> {
  const { payment, rail } = await railPaymentOf(prisma, intentId);
  const { rail: chosen } = await selectRail(rails, rail, payment);
  return toStepResult(await chosen.execute(payment));
}

export async function checkRail(prisma: PrismaClient, rails: Rails, intentId: string): Promise<RailStepResult> {
  const { rail } = await railPaymentOf(prisma, intentId);
  return toStepResult(await rails[rail as keyof Rails].status(intentId));
}

/**
 * After execute failed for good. No operation yet: a declined one is recorded, so a late
 * attempt of execute (a worker that lost contact) finds it and never performs; null. An
 * operation: the rail stands it down where it can, and its state is answered for the workflow
 * to follow until final, so no hold is released while the operation could still move money.
 */
export async function abandonRail(prisma: PrismaClient, rails: Rails, intentId: string): Promise<RailStepResult | null> {
  const { rail: name } = await railPaymentOf(prisma, intentId);
  const rail = rails[name as keyof Rails];
  const { created } = await recordOperationOnce(prisma, rail, intentId, async () => ({
    reference: `abandoned-${intentId}`,
    status: 'declined',
    declineCode: 'rail_error',
    declineMessage: `The ${rail.name} rail could not be reached; nothing was sent`,
    details: {},
  }));
  if (created) return null;
  return toStepResult(await (rail.abandon ? rail.abandon(intentId) : rail.status(intentId)));
}

function toStepResult(result: RailResult): RailStepResult {
  if (result.status === 'declined') throw declinedError(result);
  return {
    rail: result.rail,
    sandbox: result.sandbox,
    reference: result.reference,
    status: result.status,
    checkAfter: result.status === 'pending' ? (result.settleAfter?.toISOString() ?? null) : null,
  };
}
