/**
 * Database rows to the wire shapes of core/src/contracts/wallets.ts: dollars as numbers for
 * display, full-precision decimal strings beside them, dates as ISO strings.
 */
import { toDecimalString, toDollars, type AgentWalletBalanceView, type OwnerTransactionView, type OwnerWalletView } from '@purser/core';
import type { Currency } from '@purser/db';

export function toOwnerWalletView(row: { id: string; userId: string; balanceUsdc: bigint; balanceUsdt: bigint }): OwnerWalletView {
  return {
    id: row.id,
    user_id: row.userId,
    balance_usdc: toDollars(row.balanceUsdc),
    balance_usdt: toDollars(row.balanceUsdt),
    balance_usdc_exact: toDecimalString(row.balanceUsdc),
    balance_usdt_exact: toDecimalString(row.balanceUsdt),
  };
}

export const ownerTransactionViewSelect = {
  id: true,
  walletId: true,
  type: true,
  description: true,
  toAddress: true,
  amount: true,
  currency: true,
  createdAt: true,
} as const;

export function toOwnerTransactionView(row: {
  id: string;
  walletId: string;
  type: string;
  description: string;
  toAddress: string | null;
  amount: bigint;
  currency: Currency;
  createdAt: Date;
}): OwnerTransactionView {
  return {
    id: row.id,
    wallet_id: row.walletId,
    type: row.type,
    description: row.description,
    to_address: row.toAddress,
    amount: toDollars(row.amount),
    amount_exact: toDecimalString(row.amount),
    currency: row.currency,
    created_at: row.createdAt.toISOString(),
  };
}

export function toAgentWalletBalanceView(row: {
  id: string;
  agentId: string;
  walletAddress: string;
  balanceUsdc: bigint;
  balanceUsdt: bigint;
}): AgentWalletBalanceView {
  return {
    id: row.id,
    agent_id: row.agentId,
    wallet_address: row.walletAddress,
    balance_usdc: toDollars(row.balanceUsdc),
    balance_usdt: toDollars(row.balanceUsdt),
    balance_usdc_exact: toDecimalString(row.balanceUsdc),
    balance_usdt_exact: toDecimalString(row.balanceUsdt),
  };
}
