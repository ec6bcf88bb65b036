import { listWebhookDeliveriesInput as listDeliveriesRequest, webhookDeliveryListView } from '@purser/core';

export const listWebhookDeliveriesInput = listDeliveriesRequest;
export const listWebhookDeliveriesOutput = webhookDeliveryListView;
