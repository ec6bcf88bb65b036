/**
 * The audit event of an owner's change to one of their webhook endpoints, appended inside
 * the change's transaction. `data` holds what changed, never the signing secret, and an
 * endpoint's URL only without what may carry one: its query string (`?token=...`), fragment and
 * `user:password@`. The audit chain is exported and kept for years; the whole URL stays in the
 * endpoint's row alone.
 */
import type { TransactionClient } from '@purser/db';
import type { AuditData } from '../audit/audit-hash';
import { appendAuditEvent } from '../audit/append-audit-event';

export type WebhookAuditAction = 'created' | 'updated' | 'enabled' | 'disabled' | 'secret_rotated' | 'deleted';

export async function recordWebhookChange(tx: TransactionClient, ownerId: string, endpointId: string, action: WebhookAuditAction, data: AuditData): Promise<void> {
  const audited = typeof data.url === 'string' ? { ...data, url: auditedWebhookUrl(data.url) } : data;
  await appendAuditEvent(tx, { actor: `owner:${ownerId}`, action: `webhook_endpoint.${action}`, subject: `webhook_endpoint:${endpointId}`, ownerId, data: audited });
}

/** `url` as the audit chain keeps it: scheme, host, port and path. */
export function auditedWebhookUrl(url: string): string {
  if (!URL.canParse(url)) return '[not a URL]';
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  parsed.search = '';
  parsed.hash = '';
  return parsed.href;
}
