/**
 * An owner's audit entries, newest first, a page at a time: their own chain and their events
 * in the closed legacy chain (audit-hash.ts). Paged by seq, the table-wide order, which the
 * (owner_id, seq) index serves; filters narrow the page, never widen it to another owner.
 */
import { AUDIT_SUBJECT_PREFIX_WILDCARD, type AuditEntryListView, type AuditEntryView, type ListAuditEntriesInput } from '@purser/core';
import type { Prisma, PrismaClient } from '@purser/db';

export async function listAuditEntries(prisma: PrismaClient, ownerId: string, input: ListAuditEntriesInput): Promise<AuditEntryListView> {
  const where: Prisma.AuditEventWhereInput = {
    ownerId,
    ...(input.cursor === undefined ? {} : { seq: { lt: BigInt(input.cursor) } }),
    ...(input.action === undefined ? {} : { action: input.action }),
    ...(input.subject === undefined ? {} : { subject: subjectFilter(input.subject) }),
    ...(input.from === undefined && input.to === undefined
      ? {}
      : { at: { ...(input.from === undefined ? {} : { gte: new Date(input.from) }), ...(input.to === undefined ? {} : { lt: new Date(input.to) }) } }),
  };
  // One more than the page: whether there is a next page without a count.
  const rows = await prisma.auditEvent.findMany({ where, orderBy: { seq: 'desc' }, take: input.limit + 1 });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    entries: page.map(toView),
    nextCursor: rows.length > input.limit && last ? last.seq.toString() : null,
  };
}

function subjectFilter(subject: string): Prisma.StringFilter {
  if (!subject.endsWith(AUDIT_SUBJECT_PREFIX_WILDCARD)) return { equals: subject };
  // Prisma passes startsWith to LIKE as it is: escaped here, `_` in `payment_intent:` is literal.
  return { startsWith: escapeLike(subject.slice(0, -AUDIT_SUBJECT_PREFIX_WILDCARD.length)) };
}

/** LIKE's wildcards and its escape character (backslash), matched literally. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

type AuditEventRow = Awaited<ReturnType<PrismaClient['auditEvent']['findMany']>>[number];

function toView(row: AuditEventRow): AuditEntryView {
  return {
    seq: row.seq.toString(),
    chainSeq: row.chainSeq.toString(),
    chainId: row.chainId,
    at: row.at.toISOString(),
    actor: row.actor,
    action: row.action,
    subject: row.subject,
    // Every writer records an object (AuditData); anything else is shown, not dropped.
    data: isObject(row.data) ? row.data : { value: row.data },
    prevHash: row.prevHash,
    hash: row.hash,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
