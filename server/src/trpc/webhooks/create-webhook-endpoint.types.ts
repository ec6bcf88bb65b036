import { createWebhookEndpointInput as createEndpointRequest, webhookEndpointWithSecretView } from '@purser/core';

export const createWebhookEndpointInput = createEndpointRequest;
/** The endpoint and its signing secret (shown this once). */
export const createWebhookEndpointOutput = webhookEndpointWithSecretView;
