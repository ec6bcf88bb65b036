/**
 * What every policy service shares: the ownership check (another owner's policy is the same
 * 404 as a policy that does not exist), the row-to-view mapping, version numbering and the
 * audit event of a change.
 */
import { AppError, canonicalJson, POLICY_NOT_FOUND_MESSAGE, policyRulesDocumentView, type PolicyView, type StoredPolicyRules } from '@purser/core';
import { Prisma, type TransactionClient } from '@purser/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import type { AuditData } from '../audit/audit-hash';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const policySelect = {
  id: true,
  ownerId: true,
  agentId: true,
  paymentIntentId: true,
  name: true,
  version: true,
  rules: true,
  shadow: true,
  enabled: true,
  createdAt: true,
  supersededAt: true,
} as const satisfies Prisma.PolicySelect;

export type PolicyRow = Prisma.PolicyGetPayload<{ select: typeof policySelect }>;

export function policyNotFound(): AppError {
  return new AppError('NOT_FOUND', POLICY_NOT_FOUND_MESSAGE);
}

export function assertPolicyUuids(...ids: string[]): void {
  if (!ids.every((id) => UUID.test(id))) throw policyNotFound();
}

export function serializePolicy(row: PolicyRow): PolicyView {
  return {
    id: row.id,
    ownerId: row.ownerId,
    agentId: row.agentId,
    paymentIntentId: row.paymentIntentId,
    name: row.name,
    version: row.version,
    rules: policyRulesDocumentView.parse(row.rules),
    shadow: row.shadow,
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
    supersededAt: row.supersededAt?.toISOString() ?? null,
  };
}

/** Owner-wide before per-agent before intent-attached; then creation order. */
export function comparePolicyScope(a: PolicyRow, b: PolicyRow): number {
  const scope = (row: PolicyRow) => (row.paymentIntentId ? 2 : row.agentId ? 1 : 0);
  return scope(a) - scope(b) || a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Locks one of the owner's policy rows for the rest of the transaction, so concurrent changes
 * of one version serialize (the second sees it superseded), and returns it; 404 otherwise.
 */
export async function lockOwnedPolicy(tx: TransactionClient, ownerId: string, policyId: string): Promise<PolicyRow> {
  assertPolicyUuids(ownerId, policyId);
  const locked = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM policies WHERE id = ${policyId}::uuid AND owner_id = ${ownerId}::uuid FOR UPDATE`;
  if (locked.length === 0) throw policyNotFound();
  return tx.policy.findUniqueOrThrow({ where: { id: policyId }, select: policySelect });
}

/**
 * Refuses changes to a version that is no longer current, and to policies attached to a
 * payment intent (they belong to that payment; the payment engine writes them).
 */
export async function assertChangeable(tx: TransactionClient, policy: PolicyRow): Promise<void> {
  if (policy.paymentIntentId) {
    throw new AppError('CONFLICT', 'This policy is attached to a payment intent and cannot be changed here');
  }
  if (!policy.supersededAt) return;
  const current = await tx.policy.findFirst({
    where: { ownerId: policy.ownerId, name: policy.name, paymentIntentId: null, supersededAt: null },
    select: { id: true, version: true },
  });
  throw new AppError(
    'CONFLICT',
    current
      ? `Version ${policy.version} of policy "${policy.name}" was superseded by version ${current.version} (id ${current.id}); change the current version`
      : `Policy "${policy.name}" was deleted`,
  );
}

/** The next version number of a name (versions continue after a deletion, so none repeats). */
export async function nextPolicyVersion(tx: TransactionClient, ownerId: string, name: string): Promise<number> {
  const newest = await tx.policy.findFirst({ where: { ownerId, name }, orderBy: { version: 'desc' }, select: { version: true } });
  return (newest?.version ?? 0) + 1;
}

export function sameRules(a: Prisma.JsonValue | StoredPolicyRules, b: StoredPolicyRules): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

export type PolicyAuditAction = 'created' | 'updated' | 'enabled' | 'disabled' | 'deleted';

export async function recordPolicyChange(tx: TransactionClient, ownerId: string, policyId: string, action: PolicyAuditAction, data: AuditData): Promise<void> {
  await appendAuditEvent(tx, { actor: `owner:${ownerId}`, action: `policy.${action}`, subject: `policy:${policyId}`, ownerId, data });
}

/** Two writers picked the same version of one name at once: the loser is told to try again. */
export function isPolicyVersionConflict(error: unknown): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== 'P2002') return false;
  const meta = JSON.stringify(error.meta ?? {});
  return !meta.includes('prev_hash') && !meta.includes('prevHash');
}

export function policyVersionConflict(name: string): AppError {
  return new AppError('CONFLICT', `Policy "${name}" was changed by another request at the same time; read it again and retry`);
}
