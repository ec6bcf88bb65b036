import { deleteWebhookEndpoint as deleteOwnerWebhookEndpoint } from '../../services/webhooks/delete-webhook-endpoint';
import { ownerProcedure } from '../init';
import { deleteWebhookEndpointInput, deleteWebhookEndpointOutput } from './delete-webhook-endpoint.types';

export const deleteWebhookEndpoint = ownerProcedure
  .input(deleteWebhookEndpointInput)
  .output(deleteWebhookEndpointOutput)
  .mutation(({ ctx, input }) => deleteOwnerWebhookEndpoint(ctx, ctx.owner.userId, input.endpointId));
