import { webhookDeliveryDetailView, webhookDeliveryIdInput } from '@purser/core';

export const getWebhookDeliveryInput = webhookDeliveryIdInput;
/** The delivery, the body it sends and its attempt log. */
export const getWebhookDeliveryOutput = webhookDeliveryDetailView;
