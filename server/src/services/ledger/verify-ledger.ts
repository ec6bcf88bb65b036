/**
 * Checks the ledger's invariants over the whole database: entries sum to zero per currency
 * (overall and per ledger transaction), every account's balance equals the sum of its
 * entries, every owner and agent wallet's balances equal the entries of its accounts, every
 * hold account holds exactly its agent's payments in flight and its sessions' reserves, and nothing but the external
 * accounts is below zero. Tests run it after moving money; an
 * operator can run it against a live database (read-only).
 */
import type { TransactionClient } from '@purser/db';

export interface LedgerReport {
  ok: boolean;
  /** One sentence per broken invariant; empty when ok. */
  problems: string[];
  /** Sum of every entry per currency, as decimal strings of atomic units ("0" when sound). */
  totals: Record<string, string>;
}

export async function verifyLedger(prisma: TransactionClient): Promise<LedgerReport> {
  const problems: string[] = [];

  const totals = await prisma.$queryRaw<{ currency: string; total: string }[]>`
    SELECT "currency"::text AS "currency", SUM("amount")::text AS "total"
      FROM "ledger_entries" GROUP BY "currency" ORDER BY "currency"`;
  for (const { currency, total } of totals) {
    if (BigInt(total) !== 0n) problems.push(`${currency} entries sum to ${total}, not 0`);
  }

  const unbalanced = await prisma.$queryRaw<{ id: string; currency: string; total: string }[]>`
    SELECT "transaction_id"::text AS "id", "currency"::text AS "currency", SUM("amount")::text AS "total"
      FROM "ledger_entries" GROUP BY "transaction_id", "currency" HAVING SUM("amount") <> 0`;
  for (const row of unbalanced) problems.push(`ledger transaction ${row.id}: ${row.currency} entries sum to ${row.total}`);

  const empty = await prisma.$queryRaw<{ id: string }[]>`
    SELECT t."id"::text AS "id" FROM "ledger_transactions" t
     WHERE NOT EXISTS (SELECT 1 FROM "ledger_entries" e WHERE e."transaction_id" = t."id")`;
  for (const row of empty) problems.push(`ledger transaction ${row.id} has no entries`);

  const accounts = await prisma.$queryRaw<{ id: string; kind: string; balance: string; entries: string }[]>`
    SELECT a."id"::text AS "id", a."kind"::text AS "kind", a."balance"::text AS "balance",
           COALESCE(SUM(e."amount"), 0)::text AS "entries"
      FROM "ledger_accounts" a LEFT JOIN "ledger_entries" e ON e."account_id" = a."id"
     GROUP BY a."id"`;
  for (const row of accounts) {
    if (BigInt(row.balance) !== BigInt(row.entries)) {
      problems.push(`ledger account ${row.id}: balance ${row.balance} but its entries sum to ${row.entries}`);
    }
    if (row.kind !== 'external' && BigInt(row.balance) < 0n) problems.push(`ledger account ${row.id} (${row.kind}) is below zero: ${row.balance}`);
  }

  const ownerWallets = await prisma.$queryRaw<WalletRow[]>`
    SELECT w."id"::text AS "id", w."balance_usdc"::text AS "balanceUsdc", w."balance_usdt"::text AS "balanceUsdt",
           COALESCE(SUM(e."amount") FILTER (WHERE e."currency" = 'USDC'), 0)::text AS "entriesUsdc",
           COALESCE(SUM(e."amount") FILTER (WHERE e."currency" = 'USDT'), 0)::text AS "entriesUsdt"
      FROM "owner_wallets" w
      LEFT JOIN "ledger_accounts" a ON a."owner_wallet_id" = w."id" AND a."kind" = 'owner'
      LEFT JOIN "ledger_entries" e ON e."account_id" = a."id"
     GROUP BY w."id"`;
  checkWallets('owner wallet', ownerWallets, problems);

  // Hold accounts belong to an agent wallet but are not part of its balance.
  const agentWallets = await prisma.$queryRaw<WalletRow[]>`
    SELECT w."id"::text AS "id", w."balance_usdc"::text AS "balanceUsdc", w."balance_usdt"::text AS "balanceUsdt",
           COALESCE(SUM(e."amount") FILTER (WHERE e."currency" = 'USDC'), 0)::text AS "entriesUsdc",
           COALESCE(SUM(e."amount") FILTER (WHERE e."currency" = 'USDT'), 0)::text AS "entriesUsdt"
      FROM "agent_wallets" w
      LEFT JOIN "ledger_accounts" a ON a."agent_wallet_id" = w."id" AND a."kind" = 'agent'
      LEFT JOIN "ledger_entries" e ON e."account_id" = a."id"
     GROUP BY w."id"`;
  checkWallets('agent wallet', agentWallets, problems);

  // A hold account holds exactly the payments in flight (reserved, neither captured nor released)
  // and, in USDC, what the agent's payment sessions set aside (payment-sessions/session-reserve.ts).
  const holds = await prisma.$queryRaw<{ id: string; currency: string; balance: string; inFlight: string; setAside: string }[]>`
    SELECT a."id"::text AS "id", a."currency"::text AS "currency", a."balance"::text AS "balance",
           COALESCE((SELECT SUM(i."amount") FROM "payment_intents" i JOIN "agent_wallets" w ON w."agent_id" = i."agent_id"
                      WHERE w."id" = a."agent_wallet_id" AND i."currency" = a."currency" AND i."reserved_at" IS NOT NULL
                        AND i."settled_at" IS NULL AND i."released_at" IS NULL), 0)::text AS "inFlight",
           COALESCE((SELECT SUM(s."reserved_units") FROM "payment_sessions" s JOIN "agent_wallets" w ON w."agent_id" = s."agent_id"
                      WHERE w."id" = a."agent_wallet_id" AND a."currency" = 'USDC'), 0)::text AS "setAside"
      FROM "ledger_accounts" a WHERE a."kind" = 'hold'`;
  for (const row of holds) {
    if (BigInt(row.balance) !== BigInt(row.inFlight) + BigInt(row.setAside)) {
      problems.push(`hold account ${row.id}: ${row.currency} balance ${row.balance} but payments in flight total ${row.inFlight} and sessions set aside ${row.setAside}`);
    }
  }
  // A closed or rejected session sets nothing aside.
  const leftOver = await prisma.$queryRaw<{ id: string; reserved: string }[]>`
    SELECT "id"::text AS "id", "reserved_units"::text AS "reserved" FROM "payment_sessions" WHERE "status" <> 'open' AND "reserved_units" <> 0`;
  for (const row of leftOver) problems.push(`payment session ${row.id} is no longer open but still sets ${row.reserved} aside`);

  return {
    ok: problems.length === 0,
    problems,
    totals: Object.fromEntries(totals.map(({ currency, total }) => [currency, total])),
  };
}

type WalletRow = { id: string; balanceUsdc: string; balanceUsdt: string; entriesUsdc: string; entriesUsdt: string };

function checkWallets(label: string, rows: WalletRow[], problems: string[]): void {
  for (const row of rows) {
    for (const [currency, balance, entries] of [
      ['USDC', row.balanceUsdc, row.entriesUsdc],
      ['USDT', row.balanceUsdt, row.entriesUsdt],
    ] as const) {
      if (BigInt(balance) !== BigInt(entries)) problems.push(`${label} ${row.id}: ${currency} balance ${balance} but its entries sum to ${entries}`);
      if (BigInt(balance) < 0n) problems.push(`${label} ${row.id}: ${currency} balance is below zero: ${balance}`);
    }
  }
}
