/**
 * What a shadow policy would have refused: the owner's payments whose recorded gate decision
 * (policyDecision, written by the gate, the one-step authorize and the reserve) lists the policy
 * among its shadow verdicts with decision 'deny', and lists one of the policy's own rules among
 * those that fired with outcome 'deny'. The second half leaves out payments whose shadow verdict
 * reads 'deny' only because the enforced rules refused them anyway. The decision names the
 * policy version that was evaluated, and every change of rules or shadow mode writes a new
 * version with a new id (update-policy.ts), so every version of the policy's name counts.
 * Newest first, a page at a time with the intents list's keyset cursor, in its shape.
 *
 * The match is jsonb containment (`policy_decision @> '{"shadow":[{"policyId":…,"decision":"deny"}],…}'`),
 * which PostgreSQL and PGlite answer alike; the owner's (owner_id, created_at desc, id desc)
 * index gives the order.
 */
import type { IntentListView, WouldHaveBlockedInput } from '@purser/core';
import { Prisma, type PrismaClient } from '@purser/db';
import { decodeIntentCursor, encodeIntentCursor } from '../intents/intent-cursor';
import { intentSelect, toIntentView } from '../intents/intent-view';
import { assertPolicyUuids, policyNotFound } from './owned-policy';

export async function listWouldHaveBlocked(prisma: PrismaClient, ownerId: string, input: WouldHaveBlockedInput): Promise<IntentListView> {
  assertPolicyUuids(ownerId, input.policyId);
  const policy = await prisma.policy.findFirst({ where: { id: input.policyId, ownerId }, select: { name: true, paymentIntentId: true } });
  if (!policy) throw policyNotFound();
  const versions = await prisma.policy.findMany({
    where: { ownerId, name: policy.name, paymentIntentId: policy.paymentIntentId },
    select: { id: true },
  });
  const denied = versions.map(({ id }) => {
    const pattern = { shadow: [{ policyId: id, decision: 'deny' }], fired: [{ policyId: id, shadow: true, outcome: 'deny' }] };
    return Prisma.sql`"policy_decision" @> ${JSON.stringify(pattern)}::jsonb`;
  });
  const after = input.cursor ? decodeIntentCursor(input.cursor) : null;
  // The text alias is not "id": ORDER BY "id" would sort the text, not the uuid the cursor compares.
  const ids = await prisma.$queryRaw<{ intent_id: string }[]>`
    SELECT "id"::text AS "intent_id" FROM "payment_intents"
     WHERE "owner_id" = ${ownerId}::uuid
       AND (${Prisma.join(denied, ' OR ')})
       ${after ? Prisma.sql`AND ("created_at", "id") < (${after.createdAt}::timestamptz, ${after.id}::uuid)` : Prisma.empty}
     ORDER BY "created_at" DESC, "id" DESC
     LIMIT ${input.limit + 1}`;

  const page = ids.slice(0, input.limit).map((row) => row.intent_id);
  const rows = page.length === 0 ? [] : await prisma.paymentIntent.findMany({ where: { id: { in: page }, ownerId }, select: intentSelect });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ordered = page.flatMap((id) => {
    const row = byId.get(id);
    return row ? [row] : [];
  });
  const last = ordered.at(-1);
  return { intents: ordered.map(toIntentView), nextCursor: ids.length > input.limit && last ? encodeIntentCursor(last) : null };
}
