import { rotateWebhookSecretInput as rotateSecretRequest, webhookEndpointWithSecretView } from '@purser/core';

export const rotateWebhookSecretInput = rotateSecretRequest;
/** The endpoint and its new signing secret (shown this once). */
export const rotateWebhookSecretOutput = webhookEndpointWithSecretView;
