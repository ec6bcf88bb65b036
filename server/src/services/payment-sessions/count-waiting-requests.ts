import type { PendingIntentCountView } from '@purser/core';
import type { AppDeps } from '../../deps';

/**
 * The owner's budget requests waiting for a decision (status `requested`, not yet past their
 * expiry: one past it can only be rejected, and the agent asks again): with the payments waiting
 * for approval, the console's inbox badge. An index count (owner, status, created_at).
 */
export async function countWaitingRequests(deps: Pick<AppDeps, 'db'>, ownerId: string, now = new Date()): Promise<PendingIntentCountView> {
  return { count: await deps.db.prisma.paymentSession.count({ where: { ownerId, status: 'requested', expiresAt: { gt: now } } }) };
}
