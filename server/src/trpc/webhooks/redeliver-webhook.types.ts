import { redeliverWebhookInput as redeliverRequest, webhookDeliveryView } from '@purser/core';

export const redeliverWebhookInput = redeliverRequest;
export const redeliverWebhookOutput = webhookDeliveryView;
