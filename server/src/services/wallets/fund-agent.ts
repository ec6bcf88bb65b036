/**
 * Moves money from the owner's wallet to one of the owner's active agents. Recorded twice,
 * both rows linked to the one ledger transaction: an 'agent_funding' on the owner's side and
 * a completed 'deposit' (category 'funding') on the agent's.
 */
import { AppError, toDecimalString, type Currency, type FundAgentResult } from '@purser/core';
import type { PrismaClient, TransactionClient } from '@purser/db';
import { withIdempotency, type Idempotent } from '../idempotency/with-idempotency';
import { insufficientFunds, isOverdraft } from '../ledger/post-ledger-transaction';
import type { AppDeps } from '../../deps';
import { mirrorFundingOnChain } from './mirror-funding-on-chain';
import { toAgentWalletBalanceView, toOwnerTransactionView, toOwnerWalletView } from './wallet-views';

/**
 * fundAgent, then its mirror on the sandbox chain (mirror-funding-on-chain.ts): what every
 * surface that funds an agent does (REST, the edge function, tRPC, the assistant).
 */
export async function fundAgentAndMirror(
  deps: Pick<AppDeps, 'db' | 'chain' | 'logger'>,
  ownerId: string,
  request: FundAgentRequest,
  options: { idempotencyKey?: string | undefined } = {},
): Promise<Idempotent<FundAgentResult>> {
  const result = await fundAgent(deps.db.prisma, ownerId, request, options.idempotencyKey === undefined ? {} : { idempotencyKey: options.idempotencyKey });
  await mirrorFundingOnChain(deps, { ...request, replayed: result.replayed });
  return result;
}

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

  const fund = (db: TransactionClient) => fundInOneStatement(db, ownerId, request);
  // The function is one statement, atomic on its own: only an idempotency record needs a transaction around it.
  if (options.idempotencyKey === undefined) return { response: await fund(prisma), replayed: false };
  return withIdempotency(prisma, scope, fund);
}

type FundedRow = {
  outcome: 'funded' | 'no_wallet' | 'no_agent' | 'agent_suspended' | 'no_agent_wallet' | 'insufficient_funds';
  ownerWalletId: string | null;
  agentWalletId: string | null;
  agentWalletAddress: string | null;
  postedId: string | null;
  ownerTransactionId: string | null;
  ownerTransactionDescription: string | null;
  ownerTransactionCreatedAt: Date | null;
  agentTransactionId: string | null;
  ownerUsdc: bigint | null;
  ownerUsdt: bigint | null;
  agentUsdc: bigint | null;
  agentUsdt: bigint | null;
};

const REFUSALS: Record<Exclude<FundedRow['outcome'], 'funded'>, () => AppError> = {
  no_wallet: () => new AppError('NOT_FOUND', 'Wallet not found'),
  no_agent: () => new AppError('NOT_FOUND', 'Agent not found'),
  agent_suspended: () => new AppError('AGENT_SUSPENDED', 'Agent is suspended'),
  no_agent_wallet: () => new AppError('CONFLICT', 'This agent does not yet have a wallet.'),
  insufficient_funds: () => insufficientFunds(),
};

/**
 * purser_fund_agent (migration fund_agent_function): finds the owner's wallet and the agent,
 * locks both wallets in the lock order, refuses an overdraft under the lock, posts the ledger
 * transaction, writes both history rows and reads both balances, in one statement.
 */
async function fundInOneStatement(db: TransactionClient, ownerId: string, { agentId, amount, currency }: FundAgentRequest): Promise<FundAgentResult> {
  let row: FundedRow | undefined;
  try {
    [row] = await db.$queryRaw<FundedRow[]>`
      SELECT "outcome", "owner_wallet_id"::text AS "ownerWalletId", "agent_wallet_id"::text AS "agentWalletId",
             "agent_wallet_address" AS "agentWalletAddress", "posted_id"::text AS "postedId",
             "owner_transaction_id"::text AS "ownerTransactionId", "owner_transaction_description" AS "ownerTransactionDescription",
             "owner_transaction_created_at" AS "ownerTransactionCreatedAt", "agent_transaction_id"::text AS "agentTransactionId",
             "owner_usdc" AS "ownerUsdc", "owner_usdt" AS "ownerUsdt", "agent_usdc" AS "agentUsdc", "agent_usdt" AS "agentUsdt"
        FROM "purser_fund_agent"(${ownerId}::uuid, ${UUID.test(agentId) ? agentId : null}::uuid, ${amount.toString()}::bigint,
                                 ${currency}::text::"Currency", ${toDecimalString(amount)})`;
  } catch (error) {
    if (isOverdraft(error)) throw insufficientFunds(error);
    throw error;
  }
  if (!row) throw new Error('purser_fund_agent answered no row');
  if (row.outcome !== 'funded') throw REFUSALS[row.outcome]();
  const funded = row as { [K in keyof FundedRow]: NonNullable<FundedRow[K]> };
  return {
    transaction: toOwnerTransactionView({
      id: funded.ownerTransactionId,
      walletId: funded.ownerWalletId,
      type: 'agent_funding',
      description: funded.ownerTransactionDescription,
      toAddress: funded.agentWalletAddress,
      amount,
      currency,
      createdAt: funded.ownerTransactionCreatedAt,
    }),
    agent_transaction_id: funded.agentTransactionId,
    ledger_transaction_id: funded.postedId,
    wallet: toOwnerWalletView({ id: funded.ownerWalletId, userId: ownerId, balanceUsdc: BigInt(funded.ownerUsdc), balanceUsdt: BigInt(funded.ownerUsdt) }),
    agent_wallet: toAgentWalletBalanceView({
      id: funded.agentWalletId,
      agentId,
      walletAddress: funded.agentWalletAddress,
      balanceUsdc: BigInt(funded.agentUsdc),
      balanceUsdt: BigInt(funded.agentUsdt),
    }),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
