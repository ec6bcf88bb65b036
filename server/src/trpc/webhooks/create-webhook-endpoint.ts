import { createWebhookEndpoint as createOwnerWebhookEndpoint } from '../../services/webhooks/create-webhook-endpoint';
import { ownerProcedure } from '../init';
import { createWebhookEndpointInput, createWebhookEndpointOutput } from './create-webhook-endpoint.types';

export const createWebhookEndpoint = ownerProcedure
  .input(createWebhookEndpointInput)
  .output(createWebhookEndpointOutput)
  .mutation(({ ctx, input }) => createOwnerWebhookEndpoint(ctx, ctx.owner.userId, input));
