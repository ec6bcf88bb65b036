/**
 * An agent's spend per UTC day over the last `days` days, today included, for the spend chart
 * on the agent's page: oldest first, days without spend as zero. Spend is what the daily limit
 * counts (payments/gate-inputs.ts spentByAgent): intents whose funds are held or captured, dated by
 * when they were reserved; released ones count for nothing. One query: the owner check, the
 * agent's daily limit and a LEFT JOIN of the days (generate_series) onto its intents, which
 * the (agent_id, reserved_at) index answers. The part paid from payment sessions is summed beside
 * it (the chart's second series).
 */
import { toDecimalString, toDollars, type SpendHistoryInput, type SpendHistoryView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { agentNotFound, assertUuids } from './owned-agent';

export async function getSpendHistory(prisma: PrismaClient, ownerId: string, input: SpendHistoryInput, now = new Date()): Promise<SpendHistoryView> {
  assertUuids(ownerId, input.agentId);
  const today = now.toISOString().slice(0, 10);
  const rows = await prisma.$queryRaw<{ date: string; spent: string; session_spent: string; daily_limit: string }[]>`
    WITH agent AS (
      SELECT a.id, r.max_daily_limit
        FROM agents a JOIN spending_rules r ON r.agent_id = a.id
       WHERE a.id = ${input.agentId}::uuid AND a.owner_id = ${ownerId}::uuid AND a.status <> 'deleted'
    ), days AS (
      SELECT day::date AS day
        FROM generate_series(${today}::date - ${input.days - 1}::int, ${today}::date, interval '1 day') AS day
    )
    SELECT to_char(days.day, 'YYYY-MM-DD') AS date,
           coalesce(sum(p.amount), 0)::text AS spent,
           coalesce(sum(p.amount) FILTER (WHERE p.payment_session_id IS NOT NULL), 0)::text AS session_spent,
           (SELECT max_daily_limit FROM agent)::text AS daily_limit
      FROM days
      LEFT JOIN payment_intents p
        ON p.agent_id = (SELECT id FROM agent)
       AND p.released_at IS NULL
       AND p.reserved_at >= (days.day::timestamp AT TIME ZONE 'UTC')
       AND p.reserved_at < ((days.day + 1)::timestamp AT TIME ZONE 'UTC')
     WHERE EXISTS (SELECT 1 FROM agent)
     GROUP BY days.day
     ORDER BY days.day`;
  const first = rows[0];
  if (!first) throw agentNotFound();
  const dailyLimit = BigInt(first.daily_limit);
  return {
    currency: 'USDC',
    dailyLimit: toDollars(dailyLimit),
    dailyLimitExact: toDecimalString(dailyLimit),
    days: rows.map((row) => {
      const spent = BigInt(row.spent);
      const sessionSpent = BigInt(row.session_spent);
      return { date: row.date, spent: toDollars(spent), spentExact: toDecimalString(spent), sessionSpent: toDollars(sessionSpent), sessionSpentExact: toDecimalString(sessionSpent) };
    }),
  };
}
