import { z } from 'zod';
import { INTENT_STATUSES } from '@purser/core';

/**
 * 'sync': the subscription is live, read the intents now. 'changed': one of the owner's
 * payment intents was created or moved (its status now), so its live flow can be redrawn.
 */
export const intentChangeMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('sync') }),
  z.object({ type: z.literal('changed'), intentId: z.uuid(), status: z.enum(INTENT_STATUSES) }),
]);
export type IntentChangeMessage = z.infer<typeof intentChangeMessage>;
