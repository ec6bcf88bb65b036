import { rotateWebhookSecretInput as rotateSecretRequest, rotatedWebhookSecretView } from '@purser/core';

export const rotateWebhookSecretInput = rotateSecretRequest;
/** The endpoint, its new signing secret (shown this once) and until when the replaced one still signs. */
export const rotateWebhookSecretOutput = rotatedWebhookSecretView;
