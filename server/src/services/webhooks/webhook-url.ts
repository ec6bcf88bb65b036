/**
 * Where webhooks may be sent, checked when an endpoint is registered or its URL changed:
 * http(s) only, and a host the outbound policy lets through (services/outbound/), by name,
 * by literal address and by every address it resolves to now. Each delivery is checked
 * again inside its connection's own DNS lookup, so a name that re-resolves to a refused
 * address after registration (DNS rebinding) is refused at the moment it would be reached.
 */
import { AppError } from '@purser/core';
import { assertUrlAllowed, type OutboundPolicy } from '../outbound/outbound-policy';

/** Throws VALIDATION_FAILED for another scheme and URL_NOT_ALLOWED for a refused host. */
export async function assertWebhookUrlAllowed(url: string, policy: OutboundPolicy): Promise<void> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new AppError('VALIDATION_FAILED', 'Webhook URL must be an absolute http:// or https:// URL');
  await assertUrlAllowed(policy, parsed);
}
