// Activities: the only place workflows reach I/O. They come from a factory that takes their
// dependencies, so tests and the product hand in real (or stub) pieces. The payment and
// webhook steps are implemented by the server's services and handed in here, so this
// workspace never imports the server.
import { createHealthActivities, type ActivityDatabase } from './health';
import type { PaymentActivities } from '@purser/core';
import { createPaymentActivities } from './payments';
import { createPaymentSessionActivities, type PaymentSessionCloser } from './payment-sessions';
import { createWebhookActivities, type WebhookSender } from './webhooks';

export type { ActivityDatabase, DatabaseHealth } from './health';
export type { PaymentActivities, PaymentSteps } from '@purser/core';
export type { WebhookSender } from './webhooks';
export type { PaymentSessionCloser } from './payment-sessions';

export interface ActivityDependencies {
  db: ActivityDatabase;
  /** The payment workflow's steps (with those of runs recorded before 'one-front'); a worker without them runs no payments. */
  payments?: PaymentActivities;
  /** Webhook delivery; a worker without it delivers no webhooks. */
  webhooks?: WebhookSender;
  /** Closing payment sessions at their expiry; a worker without it closes none (the gate still refuses them). */
  paymentSessions?: PaymentSessionCloser;
}

export function createActivities({ db, payments, webhooks, paymentSessions }: ActivityDependencies) {
  return {
    ...createHealthActivities(db),
    ...(payments ? createPaymentActivities(payments) : {}),
    ...(webhooks ? createWebhookActivities(webhooks) : {}),
    ...(paymentSessions ? createPaymentSessionActivities(paymentSessions) : {}),
  };
}

export type Activities = ReturnType<typeof createActivities>;
