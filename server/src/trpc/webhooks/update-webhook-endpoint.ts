import { updateWebhookEndpoint as updateOwnerWebhookEndpoint } from '../../services/webhooks/update-webhook-endpoint';
import { ownerProcedure } from '../init';
import { updateWebhookEndpointInput, updateWebhookEndpointOutput } from './update-webhook-endpoint.types';

export const updateWebhookEndpoint = ownerProcedure
  .input(updateWebhookEndpointInput)
  .output(updateWebhookEndpointOutput)
  .mutation(({ ctx, input }) => updateOwnerWebhookEndpoint(ctx, ctx.owner.userId, input));
