/**
 * How an audit event's hash is computed, shared by the writer and the verifier: sha256 (hex)
 * of a canonical JSON serialization with keys sorted at every level, covering every column
 * but seq and hash itself. seq is left out because sequences leave gaps; the chain is the
 * prevHash links, and the trigger keeps seq order equal to chain order.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '@purser/core';

/** prevHash of the first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** What `data` may hold. Money goes in as decimal strings, never as floating-point numbers. */
export type AuditJson = string | number | boolean | null | AuditJson[] | { [key: string]: AuditJson | undefined };
export type AuditData = { [key: string]: AuditJson | undefined };

export type HashedAuditFields = {
  at: Date;
  actor: string;
  action: string;
  subject: string;
  ownerId: string | null;
  data: unknown;
  prevHash: string;
};

export function hashAuditEvent(event: HashedAuditFields): string {
  const canonical = canonicalJson({
    at: event.at.toISOString(),
    actor: event.actor,
    action: event.action,
    subject: event.subject,
    ownerId: event.ownerId,
    data: event.data,
    prevHash: event.prevHash,
  });
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}
