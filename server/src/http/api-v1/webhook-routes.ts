/**
 * The webhook operations of the owner REST API (/api/v1): endpoints, their delivery log and
 * redelivery. Each route calls the same service as its tRPC procedure (trpc/webhooks), with
 * the same zod contract; ownership is checked in the services.
 */
import { z } from 'zod';
import {
  createWebhookEndpointInput,
  deleteWebhookEndpointResult,
  rotatedWebhookSecretView,
  rotateWebhookSecretBody,
  webhookDeliveriesQuery,
  webhookDeliveryDetailView,
  webhookDeliveryIdSchema,
  webhookDeliveryListView,
  webhookDeliveryView,
  webhookEndpointChanges,
  webhookEndpointIdSchema,
  webhookEndpointListView,
  webhookEndpointView,
  webhookEndpointWithSecretView,
} from '@purser/core';
import { createWebhookEndpoint } from '../../services/webhooks/create-webhook-endpoint';
import { deleteWebhookEndpoint } from '../../services/webhooks/delete-webhook-endpoint';
import { getWebhookDelivery } from '../../services/webhooks/get-webhook-delivery';
import { getWebhookEndpoint } from '../../services/webhooks/get-webhook-endpoint';
import { listWebhookDeliveries } from '../../services/webhooks/list-webhook-deliveries';
import { listWebhookEndpoints } from '../../services/webhooks/list-webhook-endpoints';
import { redeliverWebhook } from '../../services/webhooks/redeliver-webhook';
import { rotateWebhookSecret } from '../../services/webhooks/rotate-webhook-secret';
import { updateWebhookEndpoint } from '../../services/webhooks/update-webhook-endpoint';
import { defineRoute, type ApiRoute } from './define-route';

const endpointParams = z.object({ endpointId: webhookEndpointIdSchema });
const deliveryParams = z.object({ deliveryId: webhookDeliveryIdSchema });
const TAG = 'Webhooks';

export const webhookRoutes: ApiRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/webhooks',
    operationId: 'listWebhookEndpoints',
    summary: "The owner's webhook endpoints (never their secrets)",
    tag: TAG,
    scope: 'read',
    response: webhookEndpointListView,
    handler: ({ deps, owner }) => listWebhookEndpoints(deps, owner.userId),
  }),
  defineRoute({
    method: 'POST',
    path: '/webhooks',
    operationId: 'createWebhookEndpoint',
    summary: 'Register a webhook endpoint for payment events; its signing secret is in this response only',
    tag: TAG,
    scope: 'webhooks:admin',
    status: 201,
    body: createWebhookEndpointInput,
    response: webhookEndpointWithSecretView,
    handler: ({ deps, owner, body }) => createWebhookEndpoint(deps, owner.userId, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/webhooks/:endpointId',
    operationId: 'getWebhookEndpoint',
    summary: 'One webhook endpoint',
    tag: TAG,
    scope: 'read',
    params: endpointParams,
    response: webhookEndpointView,
    handler: ({ deps, owner, params }) => getWebhookEndpoint(deps, owner.userId, params.endpointId),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/webhooks/:endpointId',
    operationId: 'updateWebhookEndpoint',
    summary: "Change a webhook endpoint's URL, events, description or enabled flag",
    tag: TAG,
    scope: 'webhooks:admin',
    params: endpointParams,
    body: webhookEndpointChanges,
    response: webhookEndpointView,
    handler: ({ deps, owner, params, body }) => updateWebhookEndpoint(deps, owner.userId, { ...body, endpointId: params.endpointId }),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/webhooks/:endpointId',
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete a webhook endpoint: no new deliveries, pending retries stop; its delivery log stays readable',
    tag: TAG,
    scope: 'webhooks:admin',
    params: endpointParams,
    response: deleteWebhookEndpointResult,
    handler: ({ deps, owner, params }) => deleteWebhookEndpoint(deps, owner.userId, params.endpointId),
  }),
  defineRoute({
    method: 'POST',
    path: '/webhooks/:endpointId/rotate-secret',
    operationId: 'rotateWebhookSecret',
    summary: "Replace a webhook endpoint's signing secret; the new one is in this response only, the replaced one signs beside it until previousSecretExpiresAt",
    tag: TAG,
    scope: 'webhooks:admin',
    params: endpointParams,
    body: rotateWebhookSecretBody,
    response: rotatedWebhookSecretView,
    handler: ({ deps, owner, params, body }) => rotateWebhookSecret(deps, owner.userId, { endpointId: params.endpointId, ...body }),
  }),
  defineRoute({
    method: 'GET',
    path: '/webhooks/:endpointId/deliveries',
    operationId: 'listWebhookEndpointDeliveries',
    summary: "A webhook endpoint's deliveries, newest first",
    tag: TAG,
    scope: 'read',
    params: endpointParams,
    query: webhookDeliveriesQuery,
    response: webhookDeliveryListView,
    handler: ({ deps, owner, params, query }) => listWebhookDeliveries(deps, owner.userId, { ...query, endpointId: params.endpointId }),
  }),
  defineRoute({
    method: 'GET',
    path: '/webhook-deliveries/:deliveryId',
    operationId: 'getWebhookDelivery',
    summary: 'One webhook delivery with its body and every attempt (status code, latency, error)',
    tag: TAG,
    scope: 'read',
    params: deliveryParams,
    response: webhookDeliveryDetailView,
    handler: ({ deps, owner, params }) => getWebhookDelivery(deps, owner.userId, params.deliveryId),
  }),
  defineRoute({
    method: 'POST',
    path: '/webhook-deliveries/:deliveryId/redeliver',
    operationId: 'redeliverWebhook',
    summary: 'Send a webhook delivery again (same webhook-id, current URL and secret)',
    tag: TAG,
    scope: 'webhooks:admin',
    status: 202,
    params: deliveryParams,
    response: webhookDeliveryView,
    handler: ({ deps, owner, params }) => redeliverWebhook(deps, owner.userId, params.deliveryId),
  }),
] as ApiRoute[];
