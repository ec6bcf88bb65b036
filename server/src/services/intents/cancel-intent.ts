/**
 * Cancels an intent before any money is reserved: created, waiting for approval, or approved
 * but not yet reserved. Once funds are held the payment runs to settlement or release.
 */
import { AppError, type IntentView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import type { AppDeps } from '../../deps';
import { getIntent } from './get-intent';
import { signalPaymentWorkflow } from './payment-workflows';
import { lockIntent, transitionIntent } from './transition-intent';

export async function cancelIntent(deps: Pick<AppDeps, 'db' | 'temporal' | 'logger'>, ownerId: string, intentId: string, reason?: string): Promise<IntentView> {
  const prisma = deps.db.prisma;
  await withAuditRetry(prisma, async (tx: TransactionClient) => {
    const intent = await lockIntent(tx, intentId, ownerId);
    if (intent.reservedAt !== null || !['created', 'pending_approval', 'approved'].includes(intent.status)) {
      throw new AppError('CONFLICT', `The payment intent is ${intent.status.replace('_', ' ')} and can no longer be cancelled`);
    }
    await tx.approval.updateMany({
      where: { paymentIntentId: intentId, status: 'pending' },
      data: { status: 'rejected', reason: 'Intent cancelled', decidedBy: ownerId, decidedAt: new Date() },
    });
    await transitionIntent(tx, intent, {
      to: 'cancelled',
      actor: `owner:${ownerId}`,
      data: { failureCode: 'CANCELLED', failureMessage: reason ?? 'Cancelled by the owner' },
      audit: { reason: reason ?? null },
    });
  });
  await signalPaymentWorkflow(deps.temporal, intentId, 'cancel', (error) => deps.logger.warn({ err: error, intentId }, 'cancel signal failed'));
  return getIntent(prisma, ownerId, intentId);
}
