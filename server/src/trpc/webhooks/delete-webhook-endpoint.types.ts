import { deleteWebhookEndpointResult, webhookEndpointIdInput } from '@purser/core';

export const deleteWebhookEndpointInput = webhookEndpointIdInput;
export const deleteWebhookEndpointOutput = deleteWebhookEndpointResult;
