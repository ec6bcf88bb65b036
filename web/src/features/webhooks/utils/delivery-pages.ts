// The delivery log reads page by page (newest first, cursor = the last id of the previous
// page). Each page is its own standard query (webhooks.deliveries with that input), so the
// console's invalidation of webhooks.deliveries refreshes every page shown.
import type { WebhookDeliveriesInput, WebhookDeliveryStatus } from '../api/webhook-types';

export const DELIVERIES_PAGE_SIZE = 50;

/** The input of one page of an endpoint's log: the first page has no cursor. */
export function deliveriesInput(endpointId: string, status: WebhookDeliveryStatus | null, cursor: string | null): WebhookDeliveriesInput {
  return {
    endpointId,
    limit: DELIVERIES_PAGE_SIZE,
    ...(status ? { status } : {}),
    ...(cursor ? { cursor } : {}),
  };
}
