/**
 * Sandbox top-up of the owner's wallet: money enters from the external account (the world
 * outside the platform) through the ledger and is recorded as a 'deposit'. No real funding
 * source stands behind it; the response and the description say so. So it works only while the
 * chain is the sandbox: on a real network the owner's balance must stand for real money, and
 * top-ups are refused with SANDBOX_ONLY.
 */
import { AppError, toDecimalString, UNITS_PER_DOLLAR, type Currency, type TopUpWalletResult } from '@purser/core';
import { ownerWalletSelect } from '@purser/db';
import type { AppDeps } from '../../deps';
import { assertSandbox, type SandboxCheckedNetwork } from '../chain/sandbox/sandbox-only';
import { withIdempotency, type Idempotent } from '../idempotency/with-idempotency';
import { externalAccountId, getOrCreateOwnerAccount, postLedgerTransaction } from '../ledger/post-ledger-transaction';
import { ownerTransactionViewSelect, toOwnerTransactionView, toOwnerWalletView } from './wallet-views';

/** One sandbox top-up adds at most this much (atomic units): test money, not a printing press. */
export const SANDBOX_TOP_UP_MAX_UNITS = 1_000_000n * UNITS_PER_DOLLAR;

export interface TopUpWalletRequest {
  /** Atomic units, > 0. */
  amount: bigint;
  currency: Currency;
}

export const SANDBOX_TOP_UP_INSTEAD = "Send USDC to your agents' wallet addresses instead.";

export async function topUpWallet(
  deps: Pick<AppDeps, 'db'> & { chain: { info: SandboxCheckedNetwork } },
  ownerId: string,
  request: TopUpWalletRequest,
  options: { idempotencyKey?: string } = {},
): Promise<Idempotent<TopUpWalletResult>> {
  const { amount, currency } = request;
  assertSandbox(deps.chain.info, 'Top-up from the sandbox funding source', SANDBOX_TOP_UP_INSTEAD);
  if (amount <= 0n) throw new AppError('INVALID_AMOUNT', 'Please enter a valid amount');
  if (amount > SANDBOX_TOP_UP_MAX_UNITS) {
    throw new AppError('INVALID_AMOUNT', `Sandbox top-ups are limited to ${toDecimalString(SANDBOX_TOP_UP_MAX_UNITS)} ${currency} at a time`);
  }
  const scope = {
    principalType: 'owner' as const,
    principalId: ownerId,
    endpoint: 'wallets.top-up',
    key: options.idempotencyKey,
    request: { amount, currency },
  };

  return withIdempotency(deps.db.prisma, scope, async (tx) => {
    const wallet = await tx.ownerWallet.findUnique({ where: { userId: ownerId }, select: { id: true } });
    if (!wallet) throw new AppError('NOT_FOUND', 'Wallet not found');
    const ownerAccount = await getOrCreateOwnerAccount(tx, wallet.id, currency);
    const description = `Sandbox top-up of ${toDecimalString(amount)} ${currency}`;
    const ledger = await postLedgerTransaction(tx, {
      type: 'deposit',
      description,
      entries: [
        { accountId: externalAccountId(currency), amount: -amount, currency },
        { accountId: ownerAccount.id, amount, currency },
      ],
    });
    const transaction = await tx.ownerTransaction.create({
      data: { walletId: wallet.id, type: 'deposit', description, amount, currency, ledgerTransactionId: ledger.id },
      select: ownerTransactionViewSelect,
    });
    const balances = await tx.ownerWallet.findUniqueOrThrow({ where: { id: wallet.id }, select: ownerWalletSelect });
    return {
      funding_source: 'sandbox',
      transaction: toOwnerTransactionView(transaction),
      ledger_transaction_id: ledger.id,
      wallet: toOwnerWalletView(balances),
    };
  });
}
