import { getWebhookDelivery as getOwnerWebhookDelivery } from '../../services/webhooks/get-webhook-delivery';
import { ownerProcedure } from '../init';
import { getWebhookDeliveryInput, getWebhookDeliveryOutput } from './get-webhook-delivery.types';

export const getWebhookDelivery = ownerProcedure
  .input(getWebhookDeliveryInput)
  .output(getWebhookDeliveryOutput)
  .query(({ ctx, input }) => getOwnerWebhookDelivery(ctx, ctx.owner.userId, input.deliveryId));
