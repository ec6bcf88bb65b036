/**
 * What OAuth connections spent: the amounts their payment intents hold or paid (funds reserved
 * and not released; an `upto` or channel payment counts what it paid once captured). The gate
 * reads it under the agent wallet's lock to keep a payment within the connection's cap
 * (payments/gate-inputs.ts); the console and the connection.* webhooks show it.
 */
import type { TransactionClient } from '@purser/db';

export async function spentByConnections(db: Pick<TransactionClient, '$queryRaw'>, connectionIds: readonly string[]): Promise<Map<string, bigint>> {
  if (connectionIds.length === 0) return new Map();
  const rows = await db.$queryRaw<{ id: string; spent: bigint }[]>`
    SELECT "oauth_connection_id"::text AS "id", sum("amount")::bigint AS "spent" FROM "payment_intents"
     WHERE "oauth_connection_id" = ANY(${connectionIds as string[]}::uuid[]) AND "reserved_at" IS NOT NULL AND "released_at" IS NULL
     GROUP BY "oauth_connection_id"`;
  return new Map(rows.map((row) => [row.id, BigInt(row.spent)]));
}

export async function spentThroughConnection(db: Pick<TransactionClient, '$queryRaw'>, connectionId: string): Promise<bigint> {
  return (await spentByConnections(db, [connectionId])).get(connectionId) ?? 0n;
}

