/**
 * A session the owner opened with its budget set aside (`reserve`): a hold, not only a cap. At
 * open the whole total moves from the agent's spendable balance to its wallet's hold account
 * (`session_reserve`), and `reserved_units` says how much of the hold account is the session's.
 * Its payments draw on it as they are held: the draw (`session_draw`, hold -> agent) and the
 * payment's own hold (agent -> hold) are posted in the same transaction under the wallet's lock,
 * so the agent never sees the money in between and other payments cannot take it. A payment that
 * fails gives its amount back to the reserve while the session is open (`session_restore`, after
 * its release), and so does what an `upto` payment did not spend. When the session closes
 * (spent, expired, revoked) what is still set aside goes back to the agent (`session_release`).
 *
 * The hold account then holds the payments in flight plus the open sessions' reserves, which
 * ledger/verify-ledger.ts checks. Reserves are in USDC, the currency of a session's total; a
 * payment in another currency draws nothing. Every posting changes `reserved_units` in the same
 * transaction by a guarded update, so a retry or a race cannot draw or give back twice: draws and
 * restores are once per payment intent (the ledger's unique (payment_intent_id, type)).
 */
import { AppError, toDecimalString, type Currency } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { getOrCreateAgentAccount, getOrCreateHoldAccount, postLedgerTransaction } from '../ledger/post-ledger-transaction';

const RESERVE_CURRENCY: Currency = 'USDC';

/**
 * Locks the agent's wallet before a session row is changed in a way that moves its reserve, in
 * the order every payment takes them (the wallet, then the session its front reads).
 */
export async function lockAgentWallet(tx: TransactionClient, agentId: string): Promise<void> {
  await tx.$queryRaw`SELECT 1 FROM "agent_wallets" WHERE "agent_id" = ${agentId}::uuid FOR UPDATE`;
}

/** The agent wallet a session's agent pays from. */
async function walletOf(tx: TransactionClient, agentId: string): Promise<string> {
  const wallet = await tx.agentWallet.findUnique({ where: { agentId }, select: { id: true } });
  if (!wallet) throw new AppError('CONFLICT', 'This agent does not yet have a wallet.');
  return wallet.id;
}

/**
 * Sets `units` aside for a session that is opening (in its transaction): agent -> hold, refused
 * with INSUFFICIENT_FUNDS, writing nothing, when the agent's balance is short.
 */
export async function reserveSessionBudget(tx: TransactionClient, session: { id: string; agentId: string }, units: bigint): Promise<void> {
  const walletId = await walletOf(tx, session.agentId);
  const agentAccount = await getOrCreateAgentAccount(tx, walletId, RESERVE_CURRENCY);
  if (agentAccount.balance < units) {
    throw new AppError('INSUFFICIENT_FUNDS', `The agent has ${toDecimalString(agentAccount.balance)} USDC, less than the ${toDecimalString(units)} USDC to set aside`);
  }
  const holdAccount = await getOrCreateHoldAccount(tx, walletId, RESERVE_CURRENCY);
  await postLedgerTransaction(tx, {
    type: 'session_reserve',
    description: `Budget set aside for payment session ${session.id}`,
    entries: [
      { accountId: agentAccount.id, amount: -units, currency: RESERVE_CURRENCY },
      { accountId: holdAccount, amount: units, currency: RESERVE_CURRENCY },
    ],
  });
  await tx.paymentSession.update({ where: { id: session.id }, data: { reservedUnits: { increment: units } }, select: { id: true } });
}

/**
 * What a payment of `amount` may draw from its session's reserve, read under the wallet's lock the
 * caller holds (0 without a reserve, or in another currency). The caller checks the agent's
 * balance plus this before it draws.
 */
export async function drawableFromReserve(tx: TransactionClient, sessionId: string | null, currency: Currency, amount: bigint): Promise<bigint> {
  if (sessionId === null || currency !== RESERVE_CURRENCY) return 0n;
  const [row] = await tx.$queryRaw<Array<{ reserved: bigint }>>`
    SELECT "reserved_units" AS "reserved" FROM "payment_sessions" WHERE "id" = ${sessionId}::uuid AND "reserve" AND "status" = 'open' FOR UPDATE`;
  if (!row) return 0n;
  const reserved = BigInt(row.reserved);
  return reserved < amount ? reserved : amount;
}

/** Draws `units` of the session's reserve back to the agent for the payment it is about to hold. */
export async function drawFromReserve(tx: TransactionClient, intent: { id: string; paymentSessionId: string }, accounts: { agentAccountId: string; walletId: string }, units: bigint): Promise<void> {
  if (units <= 0n) return;
  const drawn = await tx.$executeRaw`
    UPDATE "payment_sessions" SET "reserved_units" = "reserved_units" - ${units}
     WHERE "id" = ${intent.paymentSessionId}::uuid AND "reserved_units" >= ${units}`;
  if (drawn !== 1) throw new Error(`Payment session ${intent.paymentSessionId}: its reserve no longer covers ${units}`);
  const holdAccount = await getOrCreateHoldAccount(tx, accounts.walletId, RESERVE_CURRENCY);
  await postLedgerTransaction(tx, {
    type: 'session_draw',
    description: `Drawn from the budget of payment session ${intent.paymentSessionId}`,
    paymentIntentId: intent.id,
    entries: [
      { accountId: holdAccount, amount: -units, currency: RESERVE_CURRENCY },
      { accountId: accounts.agentAccountId, amount: units, currency: RESERVE_CURRENCY },
    ],
  });
}

/**
 * Gives `units` a payment of the session no longer uses (released, or left over by an `upto`
 * capture) back to its reserve, while the session is open and sets its budget aside: at most
 * what is left of the budget beyond what is already set aside. Once per payment intent.
 */
export async function restoreToReserve(tx: TransactionClient, intent: { id: string; agentId: string; currency: Currency; paymentSessionId?: string | null }, units: bigint): Promise<void> {
  if (!intent.paymentSessionId || intent.currency !== RESERVE_CURRENCY || units <= 0n) return;
  const [session] = await tx.$queryRaw<Array<{ total: bigint; reserved: bigint }>>`
    SELECT "total_units" AS "total", "reserved_units" AS "reserved" FROM "payment_sessions"
     WHERE "id" = ${intent.paymentSessionId}::uuid AND "reserve" AND "status" = 'open' AND "expires_at" > now() FOR UPDATE`;
  if (!session) return;
  const spent = await spentNow(tx, intent.paymentSessionId);
  const room = BigInt(session.total) - spent - BigInt(session.reserved);
  const back = room < units ? room : units;
  if (back <= 0n) return;
  const walletId = await walletOf(tx, intent.agentId);
  const agentAccount = await getOrCreateAgentAccount(tx, walletId, RESERVE_CURRENCY);
  if (agentAccount.balance < back) return;
  const holdAccount = await getOrCreateHoldAccount(tx, walletId, RESERVE_CURRENCY);
  await postLedgerTransaction(tx, {
    type: 'session_restore',
    description: `Given back to the budget of payment session ${intent.paymentSessionId}`,
    paymentIntentId: intent.id,
    entries: [
      { accountId: agentAccount.id, amount: -back, currency: RESERVE_CURRENCY },
      { accountId: holdAccount, amount: back, currency: RESERVE_CURRENCY },
    ],
  });
  await tx.paymentSession.update({ where: { id: intent.paymentSessionId }, data: { reservedUnits: { increment: back } }, select: { id: true } });
}

/** Gives what a closing session still sets aside back to the agent (in the close's transaction). */
export async function releaseSessionReserve(tx: TransactionClient, sessionId: string): Promise<void> {
  const [session] = await tx.$queryRaw<Array<{ agentId: string; reserved: bigint }>>`
    UPDATE "payment_sessions" s SET "reserved_units" = 0 FROM (SELECT "reserved_units" FROM "payment_sessions" WHERE "id" = ${sessionId}::uuid FOR UPDATE) before
     WHERE s."id" = ${sessionId}::uuid AND before."reserved_units" > 0
    RETURNING s."agent_id"::text AS "agentId", before."reserved_units" AS "reserved"`;
  if (!session) return;
  const units = BigInt(session.reserved);
  const walletId = await walletOf(tx, session.agentId);
  const agentAccount = await getOrCreateAgentAccount(tx, walletId, RESERVE_CURRENCY);
  const holdAccount = await getOrCreateHoldAccount(tx, walletId, RESERVE_CURRENCY);
  await postLedgerTransaction(tx, {
    type: 'session_release',
    description: `Budget of payment session ${sessionId} given back`,
    entries: [
      { accountId: holdAccount, amount: -units, currency: RESERVE_CURRENCY },
      { accountId: agentAccount.id, amount: units, currency: RESERVE_CURRENCY },
    ],
  });
}

/** What the session's payments hold or paid now (session-spend.ts's sum, in this transaction). */
async function spentNow(tx: TransactionClient, sessionId: string): Promise<bigint> {
  const [row] = await tx.$queryRaw<Array<{ spent: bigint | null }>>`
    SELECT sum("amount")::bigint AS "spent" FROM "payment_intents"
     WHERE "payment_session_id" = ${sessionId}::uuid AND "reserved_at" IS NOT NULL AND "released_at" IS NULL`;
  return BigInt(row?.spent ?? 0);
}
