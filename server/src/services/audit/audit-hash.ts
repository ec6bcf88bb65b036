/**
 * What an audit chain is, shared by the writer and the verifier: which chain an event belongs
 * to, where each chain starts, and how an event's hash is computed.
 *
 * Each owner's events form their own chain ("owner:<owner id>"); events without an owner form
 * the "system" chain; the events written while the log was one global chain are the closed
 * "legacy" chain. The hash is sha256 (hex) of a canonical JSON serialization with keys sorted
 * at every level, covering every column but seq (the table-wide sequence, which has gaps) and
 * hash itself. From per-owner chains on it also covers chainId and chainSeq, so an event
 * cannot be moved to another chain or position without its hash failing; legacy events keep
 * the hash they were written with, which predates those columns.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '@purser/core';

/** prevHash of each chain's first event. */
export const GENESIS_HASH = '0'.repeat(64);

/** Events without an owner. */
export const SYSTEM_CHAIN_ID = 'system';
/** The one global chain written before chains existed; closed, never appended to again. */
export const LEGACY_CHAIN_ID = 'legacy';

/** The chain an event with this owner goes to (the database checks the same rule). */
export function auditChainIdOf(ownerId: string | null | undefined): string {
  return ownerId ? `owner:${ownerId.toLowerCase()}` : SYSTEM_CHAIN_ID;
}

/** What `data` may hold. Money goes in as decimal strings, never as floating-point numbers. */
export type AuditJson = string | number | boolean | null | AuditJson[] | { [key: string]: AuditJson | undefined };
export type AuditData = { [key: string]: AuditJson | undefined };

/**
 * An event as its hash covers it and as an export line carries it (export-audit-log.ts): every
 * column but seq and hash, positions as decimal strings, the time in ISO 8601. The one list of
 * the audited fields: a field added here is hashed and exported alike. Its key order is the
 * export line's.
 */
export type AuditRecord = {
  chainId: string;
  chainSeq: string;
  at: string;
  actor: string;
  action: string;
  subject: string;
  ownerId: string | null;
  data: unknown;
  prevHash: string;
};

/** The same fields as the database holds them. */
export type HashedAuditFields = Omit<AuditRecord, 'chainSeq' | 'at'> & { chainSeq: bigint; at: Date };

export function auditRecordOf(event: HashedAuditFields): AuditRecord {
  return {
    chainId: event.chainId,
    chainSeq: event.chainSeq.toString(),
    at: event.at.toISOString(),
    actor: event.actor,
    action: event.action,
    subject: event.subject,
    ownerId: event.ownerId,
    data: event.data,
    prevHash: event.prevHash,
  };
}

/**
 * An event's canonical JSON (what hashAuditEvent hashes) cut around the two fields only its
 * chain's head decides, chainSeq and prevHash: `head + chainSeq + middle + prevHash + tail`.
 * The database joins them under the head's lock (purser_append_audit_events). With keys sorted,
 * chainSeq comes between chainId and data, and prevHash between ownerId and subject; both are
 * plain strings of digits or hex, so nothing around them needs escaping.
 */
export function auditHashParts(event: Omit<HashedAuditFields, 'chainSeq' | 'prevHash'>): { head: string; middle: string; tail: string } {
  const json = (value: unknown) => canonicalJson(value);
  return {
    head: `{"action":${json(event.action)},"actor":${json(event.actor)},"at":${json(event.at.toISOString())},"chainId":${json(event.chainId)},"chainSeq":"`,
    middle: `","data":${json(event.data)},"ownerId":${json(event.ownerId)},"prevHash":"`,
    tail: `","subject":${json(event.subject)}}`,
  };
}

export function hashAuditEvent(event: HashedAuditFields): string {
  const { chainId, chainSeq, ...content } = auditRecordOf(event);
  const hashed = chainId === LEGACY_CHAIN_ID ? content : { ...content, chainId, chainSeq };
  return createHash('sha256').update(canonicalJson(hashed), 'utf8').digest('hex');
}
