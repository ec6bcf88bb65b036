/**
 * What payment sessions spent: the amounts their payment intents hold or paid (funds reserved and
 * not released; an `upto` or channel payment counts what it paid once captured), as for an OAuth
 * connection's cap (oauth/connection-spend.ts). The gate reads it under the agent wallet's lock to
 * keep a payment within what is left of its session (payments/gate-inputs.ts); views show it.
 */
import type { TransactionClient } from '@purser/db';

export async function spentBySessions(db: Pick<TransactionClient, '$queryRaw'>, sessionIds: readonly string[]): Promise<Map<string, bigint>> {
  if (sessionIds.length === 0) return new Map();
  const rows = await db.$queryRaw<{ id: string; spent: bigint }[]>`
    SELECT "payment_session_id"::text AS "id", sum("amount")::bigint AS "spent" FROM "payment_intents"
     WHERE "payment_session_id" = ANY(${sessionIds as string[]}::uuid[]) AND "reserved_at" IS NOT NULL AND "released_at" IS NULL
     GROUP BY "payment_session_id"`;
  return new Map(rows.map((row) => [row.id, BigInt(row.spent)]));
}

export async function spentFromSession(db: Pick<TransactionClient, '$queryRaw'>, sessionId: string): Promise<bigint> {
  return (await spentBySessions(db, [sessionId])).get(sessionId) ?? 0n;
}
