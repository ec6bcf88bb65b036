/**
 * The audit event of an owner's change to one of their webhook endpoints, appended inside
 * the change's transaction. `data` holds what changed, never the signing secret.
 */
import type { TransactionClient } from '@purser/db';
import type { AuditData } from '../audit/audit-hash';
import { appendAuditEvent } from '../audit/append-audit-event';

export type WebhookAuditAction = 'created' | 'updated' | 'enabled' | 'disabled' | 'secret_rotated' | 'deleted';

export async function recordWebhookChange(tx: TransactionClient, ownerId: string, endpointId: string, action: WebhookAuditAction, data: AuditData): Promise<void> {
  await appendAuditEvent(tx, { actor: `owner:${ownerId}`, action: `webhook_endpoint.${action}`, subject: `webhook_endpoint:${endpointId}`, ownerId, data });
}
