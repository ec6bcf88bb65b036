import { router } from '../init';
import { createWebhookEndpoint } from './create-webhook-endpoint';
import { deleteWebhookEndpoint } from './delete-webhook-endpoint';
import { getWebhookDelivery } from './get-webhook-delivery';
import { getWebhookEndpoint } from './get-webhook-endpoint';
import { listWebhookDeliveries } from './list-webhook-deliveries';
import { listWebhookEndpoints } from './list-webhook-endpoints';
import { redeliverWebhook } from './redeliver-webhook';
import { rotateWebhookSecret } from './rotate-webhook-secret';
import { updateWebhookEndpoint } from './update-webhook-endpoint';

export const webhooksRouter = router({
  create: createWebhookEndpoint,
  list: listWebhookEndpoints,
  get: getWebhookEndpoint,
  update: updateWebhookEndpoint,
  delete: deleteWebhookEndpoint,
  rotateSecret: rotateWebhookSecret,
  deliveries: listWebhookDeliveries,
  delivery: getWebhookDelivery,
  redeliver: redeliverWebhook,
});
