import type { IntentStatus } from '@purser/core';
import { ownerProcedure } from '../init';
import { ownerEvents } from './owner-events';
import type { IntentChangeMessage } from './intent-changes.types';

/** Any change to the signed-in owner's payment intents (the payment_intents_notify trigger). */
export const intentChanges = ownerProcedure.subscription(async function* ({ ctx, signal }): AsyncGenerator<IntentChangeMessage, void> {
  for await (const message of ownerEvents(ctx, ['intents'], signal)) {
    yield message.type === 'sync' ? message : { type: 'changed', intentId: message.event.intentId, status: message.event.status as IntentStatus };
  }
});
