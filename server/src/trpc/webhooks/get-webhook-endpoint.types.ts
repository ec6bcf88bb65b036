import { webhookEndpointIdInput, webhookEndpointView } from '@purser/core';

export const getWebhookEndpointInput = webhookEndpointIdInput;
export const getWebhookEndpointOutput = webhookEndpointView;
