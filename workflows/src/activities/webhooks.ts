// Webhook delivery activities. The HTTP sending, signing and the delivery log live in the
// server (services/webhooks/deliver-webhook.ts), which hands its sender in here, so this
// workspace never imports the server.

/** The outcome of one HTTP attempt of a delivery. JSON only: it crosses Temporal. */
export interface WebhookAttemptResult {
  /** The endpoint answered 2xx (now, or an earlier run already delivered it). */
  delivered: boolean;
  /** Retrying is pointless: delivered, or the endpoint was deleted or disabled, or the delivery is gone. */
  stop: boolean;
  /** The HTTP status of this attempt; null when no response came (network error, timeout, refused address). */
  statusCode: number | null;
  /** The attempt number in the delivery's log (counts across redeliveries); 0 when no request was sent. */
  attempt: number;
}

export interface WebhookAttemptOptions {
  /**
   * When the run will try again if this attempt fails, in ms from now; null when it will not.
   * Recorded as the delivery's nextAttemptAt, so the log can say when the next try comes.
   */
  retryInMs?: number | null;
}

export interface WebhookSender {
  /** One HTTP POST of the delivery, recorded in its log (one attempt row). */
  attemptDelivery(deliveryId: string, options?: WebhookAttemptOptions): Promise<WebhookAttemptResult>;
  /** Marks a still-pending delivery failed: its retry window has passed. */
  giveUpDelivery(deliveryId: string): Promise<void>;
}

export function createWebhookActivities(sender: WebhookSender) {
  return {
    attemptWebhookDelivery(deliveryId: string, options: WebhookAttemptOptions = {}): Promise<WebhookAttemptResult> {
      return sender.attemptDelivery(deliveryId, options);
    },
    giveUpWebhookDelivery(deliveryId: string): Promise<void> {
      return sender.giveUpDelivery(deliveryId);
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
