/**
 * The owner's decision on an intent waiting for approval: approve or reject. The decision is
 * committed first (approval row, intent status, audit), then the workflow is told; an
 * approval whose time box has passed can no longer be given.
 */
import { AppError, type DecideIntentInput, type IntentView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import type { AppDeps } from '../../deps';
import { getIntent } from './get-intent';
import { signalPaymentWorkflow } from './payment-workflows';
import { lockIntent, transitionIntent } from './transition-intent';

export async function decideIntent(
  deps: Pick<AppDeps, 'db' | 'temporal' | 'logger'>,
  ownerId: string,
  decision: 'approved' | 'rejected',
  { intentId, reason }: DecideIntentInput,
): Promise<IntentView> {
  const prisma = deps.db.prisma;
  await withAuditRetry(prisma, async (tx: TransactionClient) => {
    const intent = await lockIntent(tx, intentId, ownerId);
    const approval = await tx.approval.findUnique({ where: { paymentIntentId: intentId }, select: { status: true, expiresAt: true } });
    if (intent.status !== 'pending_approval' || approval?.status !== 'pending') {
      throw new AppError('CONFLICT', `The payment intent is ${intent.status.replace('_', ' ')}, not waiting for approval`);
    }
    const now = new Date();
    if (approval.expiresAt <= now) throw new AppError('CONFLICT', 'The approval time box has passed; the payment intent expired');
    await tx.approval.update({
      where: { paymentIntentId: intentId },
      data: { status: decision, reason: reason ?? null, decidedBy: ownerId, decidedAt: now },
      select: { id: true },
    });
    await transitionIntent(tx, intent, {
      to: decision,
      actor: `owner:${ownerId}`,
      data: decision === 'rejected' ? { failureCode: 'REJECTED', failureMessage: reason ?? 'Rejected by the owner' } : {},
      audit: { reason: reason ?? null },
    });
  });
  await signalPaymentWorkflow(deps.temporal, intentId, 'approvalDecided', (error) => deps.logger.warn({ err: error, intentId }, 'approval signal failed'));
  return getIntent(prisma, ownerId, intentId);
}
