// The shapes the webhooks page reads, taken from the server's router type (erased at build).
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@purser/server';

type Inputs = inferRouterInputs<AppRouter>;
type Outputs = inferRouterOutputs<AppRouter>;

export type WebhookEndpoint = Outputs['webhooks']['list']['endpoints'][number];
export type WebhookEvent = WebhookEndpoint['events'][number];
export type WebhookDelivery = Outputs['webhooks']['deliveries']['deliveries'][number];
export type WebhookDeliveryDetail = Outputs['webhooks']['delivery'];
export type WebhookDeliveryStatus = WebhookDelivery['status'];
export type WebhookDeliveriesInput = Inputs['webhooks']['deliveries'];
export type WebhookEndpointUpdate = Inputs['webhooks']['update'];
