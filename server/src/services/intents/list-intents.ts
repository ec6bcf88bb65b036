/**
 * The owner's payment list (console's Payments page, intents.list, GET /api/v1/intents):
 * newest first, filtered, a page at a time behind a keyset cursor (intent-cursor.ts).
 *
 * The page's ids come from one SQL query: the search reads the metadata as JSON text, which
 * Prisma's filters cannot say, and the row comparison `(created_at, id) < (...)` is the form
 * PostgreSQL turns into an index range on (owner_id[, status], created_at desc, id desc). The
 * rows themselves are then read through Prisma's select, like every other intent view.
 * No index serves the search (a pg_trgm index would): it filters the owner's rows until the
 * page fills, which bench/src/intent-list.ts measures beside the indexed pages.
 */
import type { IntentListView, IntentStatus, ListIntentsInput } from '@purser/core';
import { Prisma, type PrismaClient } from '@purser/db';
import { decodeIntentCursor, encodeIntentCursor } from './intent-cursor';
import { intentSelect, toIntentView } from './intent-view';

export async function listIntents(prisma: PrismaClient, ownerId: string, input: ListIntentsInput): Promise<IntentListView> {
  const ids = await pageIds(prisma, ownerId, input);
  const page = ids.slice(0, input.limit);
  const rows = page.length === 0 ? [] : await prisma.paymentIntent.findMany({ where: { id: { in: page }, ownerId }, select: intentSelect });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const intents = page.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toIntentView(row)] : [];
  });
  const last = rows.length > 0 ? byId.get(page.at(-1)!) : undefined;
  return { intents, nextCursor: ids.length > input.limit && last ? encodeIntentCursor(last) : null };
}

/** Ids of the page and one more (whether a next page exists), in list order. */
async function pageIds(prisma: PrismaClient, ownerId: string, input: ListIntentsInput): Promise<string[]> {
  const rows = await prisma.$queryRaw<{ intent_id: string }[]>(intentPageQuery(ownerId, input));
  return rows.map((row) => row.intent_id);
}

/** The page's query as sent (the bench EXPLAINs it). */
export function intentPageQuery(ownerId: string, input: ListIntentsInput): Prisma.Sql {
  // Ordered by the uuid column itself, not the text it is selected as: the order the
  // cursor's row comparison and the indexes follow.
  return Prisma.sql`
    SELECT "id"::text AS "intent_id" FROM "payment_intents"
     WHERE ${Prisma.join(conditions(ownerId, input), ' AND ')}
     ORDER BY "created_at" DESC, "id" DESC
     LIMIT ${input.limit + 1}`;
}

/** The WHERE clause's parts; every value is a bound parameter. */
function conditions(ownerId: string, input: Omit<ListIntentsInput, 'limit'>): Prisma.Sql[] {
  const where = [Prisma.sql`"owner_id" = ${ownerId}::uuid`];
  const statuses: IntentStatus[] = input.status ?? [];
  // One status is an equality, so the (owner_id, status, created_at, id) index serves the order too.
  if (statuses.length === 1) where.push(Prisma.sql`"status" = ${statuses[0]}::"PaymentIntentStatus"`);
  else if (statuses.length > 1) where.push(Prisma.sql`"status" = ANY(${statuses}::text[]::"PaymentIntentStatus"[])`);
  if (input.rail) {
    // The enum's labels in the database are the API's names (x402-base; Prisma says x402_base).
    // An intent without a rail pays on the ledger (intent-view.ts reads it so).
    where.push(input.rail === 'ledger' ? Prisma.sql`("rail" = 'ledger' OR "rail" IS NULL)` : Prisma.sql`"rail" = ${input.rail}::"PaymentRail"`);
  }
  if (input.protocol) {
    // A paid call's metadata says `x402.protocol: 'mpp'` when it is paid over MPP; without it, x402 (intent-metadata.ts protocolOf).
    const mpp = Prisma.sql`"metadata" -> 'x402' ->> 'protocol' = 'mpp'`;
    where.push(Prisma.sql`"rail" = 'x402-base'`, input.protocol === 'mpp' ? mpp : Prisma.sql`NOT coalesce(${mpp}, false)`);
  }
  if (input.agentId) where.push(Prisma.sql`"agent_id" = ${input.agentId}::uuid`);
  if (input.sessionId) where.push(Prisma.sql`"payment_session_id" = ${input.sessionId}::uuid`);
  if (input.from) where.push(Prisma.sql`"created_at" >= ${new Date(input.from)}::timestamptz`);
  if (input.to) where.push(Prisma.sql`"created_at" < ${new Date(input.to)}::timestamptz`);
  if (input.minAmount !== undefined) where.push(Prisma.sql`"amount" >= ${input.minAmount}::bigint`);
  if (input.maxAmount !== undefined) where.push(Prisma.sql`"amount" <= ${input.maxAmount}::bigint`);
  if (input.search) {
    const pattern = `%${escapeLike(input.search)}%`;
    where.push(Prisma.sql`("purpose" ILIKE ${pattern} ESCAPE '\\' OR "merchant" ILIKE ${pattern} ESCAPE '\\' OR "metadata"::text ILIKE ${pattern} ESCAPE '\\')`);
  }
  if (input.cursor) {
    const after = decodeIntentCursor(input.cursor);
    where.push(Prisma.sql`("created_at", "id") < (${after.createdAt}::timestamptz, ${after.id}::uuid)`);
  }
  return where;
}

/** The search text taken literally: %, _ and the escape character itself match only themselves. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
