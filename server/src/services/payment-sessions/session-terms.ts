/**
 * The checks of a session's terms that its contract cannot make: the expiry against the clock
 * (core's paymentSessionExpiryProblem) and the cap per payment against the total, each a 400
 * VALIDATION_FAILED thrown before anything is written; and one session for all of an agent's
 * payments at a time, a 409.
 */
import { AppError, paymentSessionExpiryProblem, toDecimalString } from '@purser/core';
import type { TransactionClient } from '@purser/db';

export function assertSessionExpiry(expiresAt: Date, now: Date): void {
  const problem = paymentSessionExpiryProblem(expiresAt, now);
  if (problem) throw new AppError('VALIDATION_FAILED', problem);
}

export function assertPerPaymentWithinTotal(perPaymentUnits: bigint | null | undefined, totalUnits: bigint): void {
  if (perPaymentUnits != null && perPaymentUnits > totalUnits) {
    throw new AppError('VALIDATION_FAILED', `The cap per payment (${toDecimalString(perPaymentUnits)}) cannot be more than the total (${toDecimalString(totalUnits)})`);
  }
}

/**
 * Refuses a second open session for all of the agent's payments (which would leave a payment two
 * budgets to count against), under the agent's row lock so two at once cannot both pass.
 */
export async function assertNoOtherAllPaymentsSession(tx: TransactionClient, agentId: string, now: Date): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "agents" WHERE "id" = ${agentId}::uuid FOR UPDATE`;
  const open = await tx.paymentSession.findFirst({ where: { agentId, status: 'open', allPayments: true, expiresAt: { gt: now } }, select: { id: true } });
  if (open) throw new AppError('CONFLICT', `This agent already has a session open for all its payments (${open.id}): revoke it first, or open this one for the payments that name it`);
}
