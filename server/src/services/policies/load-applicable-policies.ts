/**
 * The policies the payment gate evaluates for one payment: every enabled, current version that
 * applies to it — the owner's owner-wide policies, the paying agent's, and those attached to
 * the intent — parsed for the policy engine, owner-wide first, then the agent's, then the
 * intent's, each in creation order. Shadow policies are included (the engine reports them
 * without enforcing them). A stored document that no longer parses stops the payment rather
 * than being skipped: a spend control must never silently vanish.
 */
import { AppError, policyRulesSchema, type PolicyDocument } from '@purser/core';
import type { Prisma, TransactionClient } from '@purser/db';
import { comparePolicyScope, policySelect, type PolicyRow } from './owned-policy';

export async function loadApplicablePolicies(
  tx: TransactionClient,
  scope: { ownerId: string; agentId: string; intentId?: string | null },
): Promise<PolicyDocument[]> {
  const applies: Prisma.PolicyWhereInput[] = [
    { agentId: null, paymentIntentId: null },
    { agentId: scope.agentId, paymentIntentId: null },
  ];
  if (scope.intentId) applies.push({ paymentIntentId: scope.intentId });
  const rows = await tx.policy.findMany({
    where: { ownerId: scope.ownerId, enabled: true, supersededAt: null, OR: applies },
    select: policySelect,
  });
  return toPolicyDocuments(rows);
}

/** Policy rows as the policy engine takes them, in the order it evaluates them; a document that no longer parses stops the payment. */
export function toPolicyDocuments(rows: PolicyRow[]): PolicyDocument[] {
  return [...rows].sort(comparePolicyScope).map((row) => {
    const parsed = policyRulesSchema.safeParse(row.rules);
    if (!parsed.success) {
      throw new AppError('INTERNAL', `Stored policy "${row.name}" version ${row.version} (${row.id}) does not parse: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    }
    return { id: row.id, name: row.name, version: row.version, rules: parsed.data, shadow: row.shadow };
  });
}

/** A policy row as purser_applicable_policies answers it (JSON, snake_case). */
export interface PolicyRowJson {
  id: string;
  owner_id: string;
  agent_id: string | null;
  payment_intent_id: string | null;
  name: string;
  version: number;
  rules: Prisma.JsonValue;
  shadow: boolean;
  enabled: boolean;
  created_at: string;
  superseded_at: string | null;
}

/** The policies purser_applicable_policies read (inside a larger statement), as policy documents. */
export function policyDocumentsOf(rows: readonly PolicyRowJson[]): PolicyDocument[] {
  return toPolicyDocuments(
    rows.map((row) => ({
      id: row.id,
      ownerId: row.owner_id,
      agentId: row.agent_id,
      paymentIntentId: row.payment_intent_id,
      name: row.name,
      version: row.version,
      rules: row.rules,
      shadow: row.shadow,
      enabled: row.enabled,
      createdAt: new Date(row.created_at),
      supersededAt: row.superseded_at === null ? null : new Date(row.superseded_at),
    })),
  );
}
