import { redeliverWebhook as redeliverOwnerWebhook } from '../../services/webhooks/redeliver-webhook';
import { ownerProcedure } from '../init';
import { redeliverWebhookInput, redeliverWebhookOutput } from './redeliver-webhook.types';

export const redeliverWebhook = ownerProcedure
  .input(redeliverWebhookInput)
  .output(redeliverWebhookOutput)
  .mutation(({ ctx, input }) => redeliverOwnerWebhook(ctx, ctx.owner.userId, input.deliveryId));
