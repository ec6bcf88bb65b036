import { webhookEndpointIdInput, webhookEndpointView } from '@purser/core/contracts/webhooks';

export const getWebhookEndpointInput = webhookEndpointIdInput;
export const getWebhookEndpointOutput = webhookEndpointView;
