/**
 * Moves money from the owner's wallet to one of the owner's active agents. Recorded twice,
 * both rows linked to the one ledger transaction: an 'agent_funding' on the owner's side and
 * a completed 'deposit' (category 'funding') on the agent's.
 */
import { AppError, toDecimalString, type Currency, type FundAgentResult } from '@purser/core';
import type { AgentStatus, PrismaClient, TransactionClient } from '@purser/db';
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
    const { wallet, agent } = await findWalletAndAgent(tx, ownerId, agentId);
    if (!wallet) throw new AppError('NOT_FOUND', 'Wallet not found');
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

    const transaction = await tx.ownerTransaction.create({
      data: {
        walletId: wallet.id,
        type: 'agent_funding',
        description: `Sent ${toDecimalString(amount)} ${currency} to ${agent.name}`,
        toAddress: agent.wallet.walletAddress,
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
        toAddress: agent.wallet.walletAddress,
        description: 'Funding from owner wallet',
        metadata: { owner_transaction_id: transaction.id },
        ledgerTransactionId: ledger.id,
      },
      select: { id: true },
    });
    const balances = await readBalances(tx, wallet.id, agent.wallet.id);
    return {
      transaction: toOwnerTransactionView(transaction),
      agent_transaction_id: agentTransaction.id,
      ledger_transaction_id: ledger.id,
      wallet: toOwnerWalletView(balances.owner),
      agent_wallet: toAgentWalletBalanceView({ ...balances.agent, agentId: agent.id, walletAddress: agent.wallet.walletAddress }),
    };
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type FundedAgent = { id: string; name: string; status: AgentStatus; wallet: { id: string; walletAddress: string } | null };

/**
 * The owner's wallet and the agent to fund, in one round trip and without locks (the wallets
 * are locked next, in the lock order). Filtered by owner: another owner's agent is
 * indistinguishable from one that does not exist.
 */
async function findWalletAndAgent(tx: TransactionClient, ownerId: string, agentId: string): Promise<{ wallet?: { id: string }; agent?: FundedAgent }> {
  const [row] = await tx.$queryRaw<
    { walletId: string; agentId: string | null; name: string; status: AgentStatus; agentWalletId: string | null; walletAddress: string }[]
  >`
    SELECT w."id"::text AS "walletId", a."id"::text AS "agentId", a."name", a."status"::text AS "status",
           aw."id"::text AS "agentWalletId", aw."wallet_address" AS "walletAddress"
      FROM "owner_wallets" w
      LEFT JOIN "agents" a ON a."id" = ${UUID.test(agentId) ? agentId : null}::uuid AND a."owner_id" = w."user_id" AND a."status" <> 'deleted'
      LEFT JOIN "agent_wallets" aw ON aw."agent_id" = a."id"
     WHERE w."user_id" = ${ownerId}::uuid`;
  if (!row) return {};
  const wallet = { id: row.walletId };
  if (!row.agentId) return { wallet };
  const agentWallet = row.agentWalletId ? { id: row.agentWalletId, walletAddress: row.walletAddress } : null;
  return { wallet, agent: { id: row.agentId, name: row.name, status: row.status, wallet: agentWallet } };
}

/** Both wallets' balances after the posting, in one round trip (still under their locks). */
async function readBalances(tx: TransactionClient, ownerWalletId: string, agentWalletId: string) {
  const [row] = await tx.$queryRaw<{ userId: string; ownerUsdc: bigint; ownerUsdt: bigint; agentUsdc: bigint; agentUsdt: bigint }[]>`
    SELECT w."user_id"::text AS "userId", w."balance_usdc" AS "ownerUsdc", w."balance_usdt" AS "ownerUsdt",
           aw."balance_usdc" AS "agentUsdc", aw."balance_usdt" AS "agentUsdt"
      FROM "owner_wallets" w, "agent_wallets" aw
     WHERE w."id" = ${ownerWalletId}::uuid AND aw."id" = ${agentWalletId}::uuid`;
  if (!row) throw new Error(`Wallets ${ownerWalletId} and ${agentWalletId} vanished under their locks`);
  return {
    owner: { id: ownerWalletId, userId: row.userId, balanceUsdc: BigInt(row.ownerUsdc), balanceUsdt: BigInt(row.ownerUsdt) },
    agent: { id: agentWalletId, balanceUsdc: BigInt(row.agentUsdc), balanceUsdt: BigInt(row.agentUsdt) },
  };
}
