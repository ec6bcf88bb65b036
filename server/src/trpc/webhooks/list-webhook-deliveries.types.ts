import { listWebhookDeliveriesInput as listDeliveriesRequest, webhookDeliveryListView } from '@purser/core/contracts/webhooks';

export const listWebhookDeliveriesInput = listDeliveriesRequest;
export const listWebhookDeliveriesOutput = webhookDeliveryListView;
