import { listWebhookDeliveries as listOwnerWebhookDeliveries } from '../../services/webhooks/list-webhook-deliveries';
import { ownerProcedure } from '../init';
import { listWebhookDeliveriesInput, listWebhookDeliveriesOutput } from './list-webhook-deliveries.types';

export const listWebhookDeliveries = ownerProcedure
  .input(listWebhookDeliveriesInput)
  .output(listWebhookDeliveriesOutput)
  .query(({ ctx, input }) => listOwnerWebhookDeliveries(ctx, ctx.owner.userId, input));
