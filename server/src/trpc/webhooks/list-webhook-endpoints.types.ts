import { webhookEndpointListView } from '@purser/core';

export const listWebhookEndpointsOutput = webhookEndpointListView;
