/**
 * Verifies one owner's own audit chain ("owner:<owner id>") with the checks of
 * verifyAuditChains, for the console and the API: "verified through entry N" or "broken at
 * entry N" and why. The closed legacy chain is global (its links run through every owner's
 * events), so it is not the owner's to verify; `npm run audit:verify` checks it.
 */
import type { AuditVerificationView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { auditChainIdOf } from './audit-hash';
import { verifyAuditChain, type AuditChainProblem } from './verify-audit-chains';

/** Problems of one event; the others (head mismatch, missing head) come after every event checked sound. */
const EVENT_PROBLEMS: ReadonlySet<AuditChainProblem> = new Set(['sequence gap', 'broken link', 'hash mismatch']);

export async function verifyOwnerAuditChain(prisma: PrismaClient, ownerId: string, options: { batchSize?: number } = {}): Promise<AuditVerificationView> {
  const report = await verifyAuditChain(prisma, auditChainIdOf(ownerId), options);
  if (!report || (report.ok && report.checked === 0)) {
    return { status: 'empty', checked: 0, verifiedThrough: null, brokenAt: null, reason: null };
  }
  // The walk starts at position 1 and stops at the first bad event, so the events found sound
  // are positions 1..k: k is the count checked, less the bad event when an event was bad.
  const sound = report.firstBad && EVENT_PROBLEMS.has(report.firstBad.reason) ? report.checked - 1 : report.checked;
  return {
    status: report.ok ? 'verified' : 'broken',
    checked: report.checked,
    verifiedThrough: sound > 0 ? String(sound) : null,
    brokenAt: report.firstBad ? report.firstBad.chainSeq.toString() : null,
    reason: report.firstBad?.reason ?? null,
  };
}
