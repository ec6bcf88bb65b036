/**
 * The one way money moves: a ledger transaction with balanced entries, posted inside the
 * caller's database transaction. The database's posting trigger moves account and wallet
 * balances, CHECK (balance >= 0) refuses overdrafts and a deferred trigger refuses an
 * unbalanced transaction at COMMIT (prisma/README.md, "Guards in the database"); the posting
 * function checks the same things first, under row locks and in one round trip, to give good
 * errors.
 *
 * Lock order, the same for every caller, so concurrent movements never deadlock:
 *   1. owner wallets, by id;  2. agent wallets, by id;  3. ledger accounts, by id.
 * The posting trigger locks an entry's account and then its wallet, so every wallet a
 * movement touches is locked before any of its accounts. The get-or-create helpers below
 * lock their wallet first for the same reason; call them owner side first, then agent side.
 */
import { AppError, type Currency } from '@purser/core';
import { databaseErrorOf } from './database-error';
import { EXTERNAL_ACCOUNT_IDS, type LedgerAccountKind, type TransactionClient } from '@purser/db';

export interface LedgerEntryInput {
  accountId: string;
  /** Signed atomic units: positive credits the account, negative debits it. Never 0. */
  amount: bigint;
  currency: Currency;
}

export interface LedgerTransactionInput {
  /** deposit, agent_funding, payment, hold, capture, release, ... */
  type: string;
  description?: string;
  paymentIntentId?: string;
  entries: LedgerEntryInput[];
}

export interface PostedLedgerTransaction {
  id: string;
}

/** The account that stands for the world outside the platform, per currency. */
export function externalAccountId(currency: Currency): string {
  return EXTERNAL_ACCOUNT_IDS[currency];
}

/**
 * Posts a balanced ledger transaction in one statement: the database function
 * purser_post_ledger_transaction (migration *_ledger_posting_function) checks that the entries
 * balance and match their accounts' currencies, locks the wallets and accounts they touch (in
 * the order above), refuses any debit that would take a non-external account below zero, and
 * inserts the transaction and its entries. Overdrafts surface as INSUFFICIENT_FUNDS.
 */
export async function postLedgerTransaction(tx: TransactionClient, input: LedgerTransactionInput): Promise<PostedLedgerTransaction> {
  assertBalanced(input);
  const entries = [...input.entries].sort((a, b) => compare(a.accountId, b.accountId));
  try {
    const [posted] = await tx.$queryRaw<PostedLedgerTransaction[]>`
      SELECT "purser_post_ledger_transaction"(
        ${input.type}, ${input.description ?? ''}, ${input.paymentIntentId ?? null}::uuid,
        ${entries.map((entry) => entry.accountId)}::uuid[],
        ${entries.map((entry) => entry.amount.toString())}::text[]::bigint[],
        ${entries.map((entry) => entry.currency)}::text[]::"Currency"[]
      )::text AS "id"`;
    return posted!;
  } catch (error) {
    if (isOverdraft(error)) throw insufficientFunds(error);
    throw error;
  }
}

/**
 * Inserts a ledger transaction and its entries, in account order, with no checks of its
 * own: the database's guards are all that stand behind it. postLedgerTransaction is the
 * way to move money; this is exported so tests can prove the second line of defence.
 */
export async function insertLedgerTransaction(tx: TransactionClient, input: LedgerTransactionInput): Promise<PostedLedgerTransaction> {
  const entries = [...input.entries].sort((a, b) => compare(a.accountId, b.accountId));
  try {
    const created = await tx.ledgerTransaction.create({
      data: { type: input.type, description: input.description ?? '', paymentIntentId: input.paymentIntentId ?? null },
      select: { id: true },
    });
    await tx.ledgerEntry.createMany({
      data: entries.map((entry) => ({ transactionId: created.id, accountId: entry.accountId, amount: entry.amount, currency: entry.currency })),
    });
    return created;
  } catch (error) {
    if (isOverdraft(error)) throw insufficientFunds(error);
    throw error;
  }
}

/** A ledger account whose wallet this transaction holds locked, with the wallet's balance. */
export interface LockedAccount {
  id: string;
  /** The wallet's balance in the account's currency, read under the lock (atomic units). */
  balance: bigint;
}

/**
 * The owner wallet's ledger account in `currency`, created on first use (sign-up creates
 * only the wallet row). Locks the wallet row first (see the lock order above), so the
 * balance it returns stays true until commit and a caller can refuse an overdraft early.
 */
export async function getOrCreateOwnerAccount(tx: TransactionClient, ownerWalletId: string, currency: Currency): Promise<LockedAccount> {
  // One round trip under the lock: the wallet row (locked) and its account, if it exists yet.
  const [wallet] = await tx.$queryRaw<LockedWallet[]>`
    SELECT w."balance_usdc" AS "usdc", w."balance_usdt" AS "usdt", a."id"::text AS "accountId"
      FROM "owner_wallets" w
      LEFT JOIN "ledger_accounts" a
        ON a."owner_wallet_id" = w."id" AND a."kind" = 'owner' AND a."currency" = ${currency}::"Currency"
     WHERE w."id" = ${ownerWalletId}::uuid
       FOR UPDATE OF w`;
  if (!wallet) throw new AppError('NOT_FOUND', 'Wallet not found');
  const id = wallet.accountId ?? (await createAccount(tx, { kind: 'owner', currency, ownerWalletId }));
  return { id, balance: balanceIn(wallet, currency) };
}

/** The agent wallet's spendable ledger account in `currency`, created on first use. */
export async function getOrCreateAgentAccount(tx: TransactionClient, agentWalletId: string, currency: Currency): Promise<LockedAccount> {
  const [wallet] = await tx.$queryRaw<LockedWallet[]>`
    SELECT w."balance_usdc" AS "usdc", w."balance_usdt" AS "usdt", a."id"::text AS "accountId"
      FROM "agent_wallets" w
      LEFT JOIN "ledger_accounts" a
        ON a."agent_wallet_id" = w."id" AND a."kind" = 'agent' AND a."currency" = ${currency}::"Currency"
     WHERE w."id" = ${agentWalletId}::uuid
       FOR UPDATE OF w`;
  if (!wallet) throw new AppError('NOT_FOUND', 'Agent wallet not found');
  const id = wallet.accountId ?? (await createAccount(tx, { kind: 'agent', currency, agentWalletId }));
  return { id, balance: balanceIn(wallet, currency) };
}

/**
 * The agent wallet's hold account in `currency` (funds reserved for in-flight payments),
 * created on first use. The caller must already hold the agent wallet's lock (through
 * getOrCreateAgentAccount or lockAgentWallets), as the lock order requires.
 */
export async function getOrCreateHoldAccount(tx: TransactionClient, agentWalletId: string, currency: Currency): Promise<string> {
  const existing = await tx.ledgerAccount.findUnique({
    where: { agentWalletId_kind_currency: { agentWalletId, kind: 'hold', currency } },
    select: { id: true },
  });
  return existing?.id ?? createAccount(tx, { kind: 'hold', currency, agentWalletId });
}

/** Locks agent wallet rows in id order (the lock order), e.g. a payer's and a payee's. */
export async function lockAgentWallets(tx: TransactionClient, agentWalletIds: string[]): Promise<void> {
  const ids = unique(agentWalletIds);
  if (ids.length) await tx.$queryRaw`SELECT "id" FROM "agent_wallets" WHERE "id" = ANY(${ids}::uuid[]) ORDER BY "id" FOR UPDATE`;
}

type LockedWallet = { usdc: bigint; usdt: bigint; accountId: string | null };

function balanceIn(wallet: LockedWallet, currency: Currency): bigint {
  return BigInt(currency === 'USDC' ? wallet.usdc : wallet.usdt);
}

type AccountHolder = { kind: LedgerAccountKind; currency: Currency } & ({ ownerWalletId: string } | { agentWalletId: string });

async function createAccount(tx: TransactionClient, holder: AccountHolder): Promise<string> {
  // ON CONFLICT DO NOTHING: the wallet lock serialises creators, but a creator that locked the
  // wallet another way is not refused, only ignored.
  await tx.ledgerAccount.createMany({ data: [holder], skipDuplicates: true });
  const where =
    'ownerWalletId' in holder
      ? { ownerWalletId_kind_currency: { ownerWalletId: holder.ownerWalletId, kind: holder.kind, currency: holder.currency } }
      : { agentWalletId_kind_currency: { agentWalletId: holder.agentWalletId, kind: holder.kind, currency: holder.currency } };
  const created = await tx.ledgerAccount.findUniqueOrThrow({ where, select: { id: true } });
  return created.id;
}

function assertBalanced(input: LedgerTransactionInput): void {
  if (!input.entries.length) throw new Error('A ledger transaction needs entries');
  const sums = new Map<Currency, bigint>();
  for (const entry of input.entries) {
    if (typeof entry.amount !== 'bigint' || entry.amount === 0n) throw new Error('Ledger entry amounts are non-zero bigints');
    sums.set(entry.currency, (sums.get(entry.currency) ?? 0n) + entry.amount);
  }
  for (const [currency, sum] of sums) {
    if (sum !== 0n) throw new Error(`Ledger transaction does not balance: its ${currency} entries sum to ${sum}, not 0`);
  }
}

function unique(values: (string | null)[]): string[] {
  return [...new Set(values.filter((value): value is string => value !== null))].sort();
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** 422 INSUFFICIENT_FUNDS 'Insufficient balance', the same wherever an overdraft is refused. */
export function insufficientFunds(cause?: unknown): AppError {
  return new AppError('INSUFFICIENT_FUNDS', 'Insufficient balance', { cause });
}

/**
 * An overdraft refused by the database: the posting function's check ('insufficient funds: ...')
 * or CHECK (balance >= 0) on an account or wallet, raised through the posting trigger.
 */
export function isOverdraft(error: unknown): boolean {
  const database = databaseErrorOf(error);
  return database?.code === '23514' && (/_not_negative"?/.test(database.message) || /insufficient funds: /.test(database.message));
}
