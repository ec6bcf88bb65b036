/**
 * Moves money from the owner's wallet to one of the owner's active agents. Recorded twice,
 * both rows linked to the one ledger transaction: an 'agent_funding' on the owner's side and
 * a completed 'deposit' (category 'funding') on the agent's.
 */
import { AppError, toDecimalString, type Currency, type FundAgentResult } from '@purser/core';
import { ownerWalletSelect, type PrismaClient } from '@purser/db';
import { withIdempotency, type Idempotent } from '../idempotency/with-idempotency';
import { getOrCreateAgentAccount, getOrCreateOwnerAccount, insufficientFunds, postLedgerTransaction } from '../ledger/post-ledger-transaction';
import { ownerTransactionViewSelect, toAgentWalletBalanceView, toOwnerTransactionView, toOwnerWalletView } from './wallet-views';

export interface FundAgentRequest {
  agentId: string;
  /** Atomic units, > 0. */
  amount: bigint;
  currency: Currency;
}

export async function fundAgent(
  prisma: PrismaClient,
  ownerId: string,
  request: FundAgentRequest,
  options: { idempotencyKey?: string } = {},
): Promise<Idempotent<FundAgentResult>> {
  const { agentId, amount, currency } = request;
  if (amount <= 0n) throw new AppError('INVALID_AMOUNT', 'Please select an agent and enter a valid amount');
  const scope = {
    principalType: 'owner' as const,
    principalId: ownerId,
    endpoint: 'wallets.fund-agent',
    key: options.idempotencyKey,
    request: { agentId, amount, currency },
  };

  return withIdempotency(prisma, scope, async (tx) => {
    const wallet = await tx.ownerWallet.findUnique({ where: { userId: ownerId }, select: { id: true } });
    if (!wallet) throw new AppError('NOT_FOUND', 'Wallet not found');
    // Filtered by owner: another owner's agent is indistinguishable from one that does not exist.
    const agent = await tx.agent.findFirst({
      where: { id: agentId, ownerId, status: { not: 'deleted' } },
      select: { id: true, name: true, status: true, wallet: { select: { id: true } } },
    });
    if (!agent) throw new AppError('NOT_FOUND', 'Agent not found');
    if (agent.status !== 'active') throw new AppError('AGENT_SUSPENDED', 'Agent is suspended');
    if (!agent.wallet) throw new AppError('CONFLICT', 'This agent does not yet have a wallet.');

    // Lock order: the owner's wallet, then the agent's (post-ledger-transaction.ts).
    const ownerAccount = await getOrCreateOwnerAccount(tx, wallet.id, currency);
    // Refused here, under the lock, a losing request in a burst releases the wallet at once;
    // postLedgerTransaction and the database's CHECK stand behind this.
    if (ownerAccount.balance < amount) throw insufficientFunds();
    const agentAccount = await getOrCreateAgentAccount(tx, agent.wallet.id, currency);
    const ledger = await postLedgerTransaction(tx, {
      type: 'agent_funding',
      description: `Funding of agent ${agent.name}`,
      entries: [
        { accountId: ownerAccount.id, amount: -amount, currency },
        { accountId: agentAccount.id, amount, currency },
      ],
    });

    const agentWallet = await tx.agentWallet.findUniqueOrThrow({
      where: { id: agent.wallet.id },
      select: { id: true, agentId: true, walletAddress: true, balanceUsdc: true, balanceUsdt: true },
    });
    const transaction = await tx.ownerTransaction.create({
      data: {
        walletId: wallet.id,
        type: 'agent_funding',
        description: `Sent ${toDecimalString(amount)} ${currency} to ${agent.name}`,
        toAddress: agentWallet.walletAddress,
        amount,
        currency,
        ledgerTransactionId: ledger.id,
      },
      select: ownerTransactionViewSelect,
    });
    const agentTransaction = await tx.agentTransaction.create({
      data: {
        agentId: agent.id,
        type: 'deposit',
        amount,
        currency,
        status: 'completed',
        category: 'funding',
        toAddress: agentWallet.walletAddress,
        description: 'Funding from owner wallet',
        metadata: { owner_transaction_id: transaction.id },
        ledgerTransactionId: ledger.id,
      },
      select: { id: true },
    });
    const balances = await tx.ownerWallet.findUniqueOrThrow({ where: { id: wallet.id }, select: ownerWalletSelect });
    return {
      transaction: toOwnerTransactionView(transaction),
      agent_transaction_id: agentTransaction.id,
      ledger_transaction_id: ledger.id,
      wallet: toOwnerWalletView(balances),
      agent_wallet: toAgentWalletBalanceView(agentWallet),
    };
  });
}
