import { updateWebhookEndpointInput as updateEndpointRequest, webhookEndpointView } from '@purser/core';

export const updateWebhookEndpointInput = updateEndpointRequest;
export const updateWebhookEndpointOutput = webhookEndpointView;
