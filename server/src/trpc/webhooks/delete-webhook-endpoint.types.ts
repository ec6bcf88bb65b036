import { deleteWebhookEndpointResult, webhookEndpointIdInput } from '@purser/core/contracts/webhooks';

export const deleteWebhookEndpointInput = webhookEndpointIdInput;
export const deleteWebhookEndpointOutput = deleteWebhookEndpointResult;
