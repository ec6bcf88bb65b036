import { redeliverWebhookInput as redeliverRequest, webhookDeliveryView } from '@purser/core/contracts/webhooks';

export const redeliverWebhookInput = redeliverRequest;
export const redeliverWebhookOutput = webhookDeliveryView;
