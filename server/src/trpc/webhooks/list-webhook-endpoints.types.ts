import { webhookEndpointListView } from '@purser/core/contracts/webhooks';

export const listWebhookEndpointsOutput = webhookEndpointListView;
