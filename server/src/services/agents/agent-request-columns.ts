/**
 * The agent and wallet columns both credential reads of the agent API answer, in the same
 * statement as the credential (an API key: purser_agent_request_credentials; an OAuth access
 * token: purser_oauth_access_credentials), read through the driver as text, and the wallet
 * snapshot made of them.
 */
import type { AgentStatus, KyaTier } from '@purser/db';

/**
 * The agent's wallet as the authentication read it, in the same statement: its balances at the
 * start of the request. A route that does nothing else may answer them (GET /balance); anything
 * that moves money, or answers after doing so, reads the wallet again.
 */
export interface AgentWalletSnapshot {
  balanceUsdc: bigint;
  balanceUsdt: bigint;
  evmAddress: string | null;
}

export interface AgentRequestColumns {
  agent_id: string;
  did: string;
  owner_id: string;
  status: AgentStatus;
  kya_tier: KyaTier;
  /** Null when the agent has no wallet row (the LEFT JOIN found none). */
  balance_usdc: string | null;
  balance_usdt: string | null;
  evm_wallet_address: string | null;
}

/** The SELECT list of those columns. */
export const AGENT_REQUEST_COLUMNS = 'agent_id, did, owner_id, status, kya_tier, balance_usdc::text, balance_usdt::text, evm_wallet_address';

export function walletSnapshotOf(row: AgentRequestColumns): AgentWalletSnapshot {
  return { balanceUsdc: BigInt(row.balance_usdc ?? 0), balanceUsdt: BigInt(row.balance_usdt ?? 0), evmAddress: row.evm_wallet_address };
}
