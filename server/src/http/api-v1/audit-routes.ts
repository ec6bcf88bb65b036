/**
 * The owner's audit log under /api/v1/audit-entries: the same services and core contracts as
 * the tRPC `audit` router, and the owner's export as JSON Lines, the file
 * `npm run audit:verify -- --file` checks. Session cookies authenticate as well as API keys,
 * so the console downloads the export with a plain link.
 */
import { auditEntryListView, auditExportLine, auditVerificationView, listAuditEntriesInput } from '@purser/core';
import { exportAuditLog } from '../../services/audit/export-audit-log';
import { listAuditEntries } from '../../services/audit/list-audit-entries';
import { verifyOwnerAuditChain } from '../../services/audit/verify-owner-audit-chain';
import { defineRoute, type ApiRoute } from './define-route';

/** `purser-audit-2026-11-26.jsonl`: the UTC day of the download. */
export function auditExportFileName(now = new Date()): string {
  return `purser-audit-${now.toISOString().slice(0, 10)}.jsonl`;
}

export const auditRoutes = [
  defineRoute({
    method: 'GET',
    path: '/audit-entries',
    operationId: 'listAuditEntries',
    summary: "The owner's audit entries, newest first, a page at a time; subject ending in * matches a prefix",
    tag: 'Audit',
    scope: 'read',
    query: listAuditEntriesInput,
    response: auditEntryListView,
    handler: ({ deps, owner, query }) => listAuditEntries(deps.db.prisma, owner.userId, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/audit-entries/verification',
    operationId: 'verifyAuditChain',
    summary: "Verify the owner's hash chain: verified through entry N, or broken at entry N and why",
    tag: 'Audit',
    scope: 'read',
    response: auditVerificationView,
    handler: ({ deps, owner }) => verifyOwnerAuditChain(deps.db.prisma, owner.userId),
  }),
  defineRoute({
    method: 'GET',
    path: '/audit-entries/export',
    operationId: 'exportAuditEntries',
    summary: "The owner's whole audit log as JSON Lines, oldest first, for `npm run audit:verify -- --file`",
    tag: 'Audit',
    scope: 'read',
    stream: 'application/x-ndjson',
    response: auditExportLine,
    async handler({ deps, owner, reply }) {
      reply.header('content-disposition', `attachment; filename="${auditExportFileName()}"`).header('cache-control', 'no-store');
      return exportAuditLog(deps.db.prisma, { ownerId: owner.userId });
    },
  }),
] as ApiRoute[];
