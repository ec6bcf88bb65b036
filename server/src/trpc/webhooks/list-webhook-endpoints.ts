import { listWebhookEndpoints as listOwnerWebhookEndpoints } from '../../services/webhooks/list-webhook-endpoints';
import { ownerProcedure } from '../init';
import { listWebhookEndpointsOutput } from './list-webhook-endpoints.types';

export const listWebhookEndpoints = ownerProcedure.output(listWebhookEndpointsOutput).query(({ ctx }) => listOwnerWebhookEndpoints(ctx, ctx.owner.userId));
