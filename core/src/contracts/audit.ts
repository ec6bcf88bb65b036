/**
 * Contracts of an owner's audit log (owner tRPC `audit.*` and /api/v1/audit-entries): their
 * entries a page at a time, the verification of their hash chain ("owner:<owner id>") and the
 * JSON Lines export that `npm run audit:verify -- --file` checks. Positions and sequence
 * numbers are decimal strings: they are PostgreSQL bigints.
 */
import { z } from 'zod';

export const AUDIT_LIST_DEFAULT_LIMIT = 50;
export const AUDIT_LIST_MAX_LIMIT = 100;
/** A `subject` filter ending in this matches every subject starting with what precedes it. */
export const AUDIT_SUBJECT_PREFIX_WILDCARD = '*';

const LIMIT_MESSAGE = `limit must be from 1 to ${AUDIT_LIST_MAX_LIMIT}`;
const decimal = /^[1-9][0-9]{0,18}$/;
const isoDateTime = (name: string) => z.iso.datetime({ offset: true, error: `${name} must be an ISO 8601 date-time, e.g. 2026-01-31T00:00:00Z` });

export const listAuditEntriesInput = z.object({
  /** Coerced, so the same schema reads the REST query string. */
  limit: z.coerce
    .number()
    .int({ error: LIMIT_MESSAGE })
    .min(1, { error: LIMIT_MESSAGE })
    .max(AUDIT_LIST_MAX_LIMIT, { error: LIMIT_MESSAGE })
    .default(AUDIT_LIST_DEFAULT_LIMIT)
    .describe(`Entries per page, 1 to ${AUDIT_LIST_MAX_LIMIT}`),
  cursor: z
    .string()
    .regex(decimal, { error: 'cursor must be the nextCursor of a previous page' })
    .optional()
    .describe('The nextCursor of the previous page: the entries older than its last one'),
  action: z.string().trim().min(1).max(200, { error: 'action must be at most 200 characters' }).optional().describe('Exactly this action, e.g. agent.suspended'),
  subject: z
    .string()
    .trim()
    .min(1)
    .max(300, { error: 'subject must be at most 300 characters' })
    .optional()
    .describe('Exactly this subject (agent:<id>), or with a trailing * every subject starting with the rest (payment_intent:*)'),
  from: isoDateTime('from').optional().describe('Entries at or after this instant (ISO 8601 with a zone)'),
  to: isoDateTime('to').optional().describe('Entries before this instant (ISO 8601 with a zone)'),
});
export type ListAuditEntriesBody = z.input<typeof listAuditEntriesInput>;
export type ListAuditEntriesInput = z.output<typeof listAuditEntriesInput>;

// ---------------------------------------------------------------- responses

export const auditEntryView = z.object({
  /** The table-wide sequence number (orders all entries; has gaps). */
  seq: z.string(),
  /** Position in its chain, from 1, without gaps. */
  chainSeq: z.string(),
  /** `owner:<owner id>`, or `legacy` for entries written before each owner had a chain. */
  chainId: z.string(),
  at: z.string(),
  /** `owner:<user id>`, `agent:<did>`, `system`, ... */
  actor: z.string(),
  action: z.string(),
  subject: z.string(),
  /** What changed; never secrets. */
  data: z.record(z.string(), z.unknown()),
  prevHash: z.string(),
  hash: z.string(),
});
export type AuditEntryView = z.infer<typeof auditEntryView>;

export const auditEntryListView = z.object({
  /** Newest first. */
  entries: z.array(auditEntryView),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type AuditEntryListView = z.infer<typeof auditEntryListView>;

export const AUDIT_VERIFICATION_STATUSES = ['verified', 'broken', 'empty'] as const;

/**
 * The owner's chain checked from its first entry: positions without gaps, each entry linked to
 * the one before, each hash recomputed, the chain's head naming its last entry.
 */
export const auditVerificationView = z.object({
  status: z.enum(AUDIT_VERIFICATION_STATUSES),
  /** Entries checked, the broken one included. */
  checked: z.number().int(),
  /** chainSeq of the last entry found sound ("verified through entry N"); null when none is. */
  verifiedThrough: z.string().nullable(),
  /** chainSeq of the first bad entry ("broken at entry N"); null unless broken. */
  brokenAt: z.string().nullable(),
  /** Why: `sequence gap`, `broken link`, `hash mismatch`, `head mismatch` or `missing head`; null unless broken. */
  reason: z.string().nullable(),
});
export type AuditVerificationView = z.infer<typeof auditVerificationView>;

/**
 * One line of an audit export (JSON Lines, oldest first). It holds every hashed field, so a
 * chain can be checked from the export alone.
 */
export const auditExportLine = z.object({
  seq: z.string().regex(decimal),
  chainId: z.string().min(1),
  chainSeq: z.string().regex(decimal),
  at: z.iso.datetime(),
  actor: z.string(),
  action: z.string(),
  subject: z.string(),
  ownerId: z.string().nullable(),
  data: z.unknown(),
  prevHash: z.string(),
  hash: z.string(),
});
export type AuditExportLine = z.infer<typeof auditExportLine>;
