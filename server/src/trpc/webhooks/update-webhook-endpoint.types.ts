import { updateWebhookEndpointInput as updateEndpointRequest, webhookEndpointView } from '@purser/core/contracts/webhooks';

export const updateWebhookEndpointInput = updateEndpointRequest;
export const updateWebhookEndpointOutput = webhookEndpointView;
