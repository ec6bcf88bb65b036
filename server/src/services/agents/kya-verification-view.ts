/** KYA verification rows to the wire shape of core/src/contracts/kya.ts. */
import type { KyaVerificationView } from '@purser/core';
import type { Prisma } from '@purser/db';

export const kyaVerificationSelect = {
  id: true,
  agentId: true,
  fromTier: true,
  toTier: true,
  status: true,
  method: true,
  evidence: true,
  reason: true,
  requestedBy: true,
  createdAt: true,
} as const satisfies Prisma.KyaVerificationSelect;

export type KyaVerificationRow = Prisma.KyaVerificationGetPayload<{ select: typeof kyaVerificationSelect }>;

export function serializeKyaVerification(row: KyaVerificationRow): KyaVerificationView {
  const evidence = row.evidence !== null && typeof row.evidence === 'object' && !Array.isArray(row.evidence) ? row.evidence : {};
  return {
    id: row.id,
    agent_id: row.agentId,
    from_tier: row.fromTier,
    to_tier: row.toTier,
    status: row.status,
    method: row.method,
    evidence: evidence as Record<string, unknown>,
    reason: row.reason,
    requested_by: row.requestedBy,
    created_at: row.createdAt.toISOString(),
  };
}
