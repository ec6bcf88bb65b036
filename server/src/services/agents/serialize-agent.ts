/**
 * Database rows to the wire shapes of core/src/contracts/agents.ts, in one place: dollars as
 * numbers (the spec's shape) with full-precision decimal strings beside them (`*_exact`),
 * dates as ISO strings. Key material and hashes are never selected (agentSelect).
 */
import { agentCredentialView, toDecimalString, toDollars, type AgentCredentialView, type AgentTransactionView, type AgentView } from '@purser/core';
import { agentSelect, type Prisma } from '@purser/db';

export { agentSelect };
export type AgentRow = Prisma.AgentGetPayload<{ select: typeof agentSelect }>;

function readCredential(value: unknown): AgentCredentialView | null {
  const parsed = agentCredentialView.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export function serializeAgent(row: AgentRow): AgentView {
  const wallet = row.wallet;
  const rules = row.spendingRules;
  return {
    id: row.id,
    owner_id: row.ownerId,
    name: row.name,
    description: row.description,
    did: row.did,
    status: row.status,
    kya_tier: row.kyaTier,
    verifiable_credential: readCredential(row.verifiableCredential),
    created_at: row.createdAt.toISOString(),
    agent_wallets: wallet
      ? {
          id: wallet.id,
          wallet_address: wallet.walletAddress,
          evm_wallet_address: wallet.evmWalletAddress,
          blockchain_network: wallet.blockchainNetwork,
          balance_usdc: toDollars(wallet.balanceUsdc),
          balance_usdt: toDollars(wallet.balanceUsdt),
          balance_usdc_exact: toDecimalString(wallet.balanceUsdc),
          balance_usdt_exact: toDecimalString(wallet.balanceUsdt),
        }
      : null,
    spending_rules: rules
      ? {
          max_transaction_amount: toDollars(rules.maxTransactionAmount),
          max_daily_limit: toDollars(rules.maxDailyLimit),
          max_transaction_amount_exact: toDecimalString(rules.maxTransactionAmount),
          max_daily_limit_exact: toDecimalString(rules.maxDailyLimit),
          approval_threshold: rules.approvalThreshold === null ? null : toDollars(rules.approvalThreshold),
          approval_threshold_exact: rules.approvalThreshold === null ? null : toDecimalString(rules.approvalThreshold),
        }
      : null,
  };
}

export const agentTransactionSelect = {
  id: true,
  agentId: true,
  type: true,
  amount: true,
  currency: true,
  status: true,
  category: true,
  toAddress: true,
  description: true,
  metadata: true,
  createdAt: true,
} as const satisfies Prisma.AgentTransactionSelect;

export type AgentTransactionRow = Prisma.AgentTransactionGetPayload<{ select: typeof agentTransactionSelect }>;

export function serializeAgentTransaction(row: AgentTransactionRow): AgentTransactionView {
  const metadata = row.metadata !== null && typeof row.metadata === 'object' && !Array.isArray(row.metadata) ? row.metadata : {};
  return {
    id: row.id,
    agent_id: row.agentId,
    type: row.type,
    amount: toDollars(row.amount),
    amount_exact: toDecimalString(row.amount),
    currency: row.currency,
    status: row.status,
    category: row.category,
    to_address: row.toAddress,
    description: row.description,
    metadata: metadata as Record<string, unknown>,
    created_at: row.createdAt.toISOString(),
  };
}
