import { getWebhookEndpoint as getOwnerWebhookEndpoint } from '../../services/webhooks/get-webhook-endpoint';
import { ownerProcedure } from '../init';
import { getWebhookEndpointInput, getWebhookEndpointOutput } from './get-webhook-endpoint.types';

export const getWebhookEndpoint = ownerProcedure
  .input(getWebhookEndpointInput)
  .output(getWebhookEndpointOutput)
  .query(({ ctx, input }) => getOwnerWebhookEndpoint(ctx, ctx.owner.userId, input.endpointId));
