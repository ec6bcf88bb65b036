import type { IntentProgressView } from '@purser/core';
import type { AppDeps } from '../../deps';
import { getIntent } from './get-intent';
import { queryPaymentProgress } from './payment-workflows';

/**
 * The intent's live flow as its workflow reports it (the progress query): the current step and
 * each step's status, for the web app's diagram. The status is the database's.
 */
export async function getIntentProgress(deps: Pick<AppDeps, 'db' | 'temporal'>, ownerId: string, intentId: string): Promise<IntentProgressView> {
  const intent = await getIntent(deps.db.prisma, ownerId, intentId);
  const progress = await queryPaymentProgress(deps.temporal, intentId);
  return {
    intentId,
    status: intent.status,
    currentStep: progress?.currentStep ?? null,
    steps: progress?.steps ?? [],
  };
}
