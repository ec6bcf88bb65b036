/**
 * The EVM chain the agents' wallets live on, as the rest of the server sees it: network
 * metadata for /balance, /info and the connect page, USDC and ETH balances, the EIP-3009
 * authorisation state the x402 rail settles by, and the x402 facilitator that verifies and
 * settles payments for the sandbox's paid API.
 *
 * One implementation serves both worlds: `startChain` (start-chain.ts) starts a local anvil
 * with Circle's USDC (the sandbox) when no EVM_RPC_URL is configured, and otherwise connects
 * to the configured network (Base Sepolia, Base).
 */
import type { FacilitatorClient } from '@x402/core/server';
import type { Account, Address, Hex, LocalAccount, PublicClient } from 'viem';
import type { SupervisedStatus } from '../../health';

/** CAIP-2 network id, as x402 v2 names networks: `eip155:84532` is Base Sepolia. */
export type EvmNetwork = `eip155:${number}`;

export interface EvmNetworkInfo {
  network: EvmNetwork;
  /** The x402 v1 name of the network (`base-sepolia`, `base`). */
  v1Name: string;
  /** What people call it: 'Base Sepolia', 'Base', 'Sandbox (local chain, Base Sepolia id)'. */
  displayName: string;
  chainId: number;
  /** A local anvil chain with test USDC: balances and payments are not real money. */
  sandbox: boolean;
  usdcAddress: Address;
  /** Block explorer base URL (no trailing slash); null when the network has none (anvil). */
  explorerUrl: string | null;
  /** Where test USDC comes from: a faucet page, or null (mainnet; the sandbox funds itself). */
  faucetUrl: string | null;
}

export interface EvmChain {
  info: EvmNetworkInfo;
  /** The JSON-RPC endpoint (for logs and the connect page's sandbox notes; never a secret here). */
  rpcUrl: string;
  publicClient: PublicClient;
  /** Atomic units (6 decimals). */
  usdcBalanceOf(address: Address): Promise<bigint>;
  /** Wei. */
  ethBalanceOf(address: Address): Promise<bigint>;
  /**
   * USDC (atomic units) and ETH (wei) together, as GET /balance shows them: read from the node
   * once per block, then answered from memory until this process learns of a later block or of a
   * change made without one, its own sends included (chain-read-cache.ts).
   */
  balancesOf(address: Address): Promise<{ usdc: bigint; eth: bigint }>;
  /**
   * Sandbox only: mints `usdc` atomic units of test USDC to `address` and tops its ETH up to
   * the sandbox's gas allowance. Throws on a real network: nobody can mint real USDC.
   */
  fundSandboxAddress(address: Address, usdc: bigint): Promise<{ transactionHash: Hex }>;
  /**
   * EIP-3009 `authorizationState(authorizer, nonce)`: true once used or cancelled. Read at block
   * `at` when given (a decision reads the block first, then the state at that block: a node
   * behind the head cannot answer for it), at the node's latest otherwise.
   */
  authorizationUsed(authorizer: Address, nonce: Hex, at?: bigint): Promise<boolean>;
  /**
   * What ended an authorisation, searched from `fromBlock` to `toBlock` (the node's latest when
   * absent): the transaction that used it (its `AuthorizationUsed` log) or the one that cancelled
   * it (`AuthorizationCanceled`); null for both while it is still open.
   */
  authorizationOutcome(authorizer: Address, nonce: Hex, fromBlock: bigint, toBlock?: bigint): Promise<{ used: Hex | null; cancelled: Hex | null }>;
  /**
   * Submits EIP-3009 `cancelAuthorization` with the authorizer's signature over
   * CancelAuthorization(authorizer, nonce), and waits for it to be mined. Anyone may submit it:
   * the chain's gas payer does (the sandbox admin, or the facilitator account), else `sender`.
   * Resolves with the transaction; rejects if it reverted (e.g. the seller used it first).
   */
  cancelAuthorization(request: { authorizer: Address; nonce: Hex; signature: Hex; sender?: Account }): Promise<Hex>;
  /** Permit2's unordered nonce of `owner`: true once used by a transfer or invalidated; at block `at` when given. */
  permit2NonceUsed(owner: Address, nonce: bigint, at?: bigint): Promise<boolean>;
  /** USDC's allowance of `owner` to Permit2, and `owner`'s EIP-2612 permit nonce; at block `at` when given. */
  permit2Allowance(owner: Address, at?: bigint): Promise<{ allowance: bigint; permitNonce: bigint }>;
  /**
   * Submits USDC's EIP-2612 `permit(owner, Permit2, value, deadline, signature)` and waits for it:
   * the chain's gas payer sends it (the owner pays no gas), else `sender`. Rejects if it reverted.
   */
  submitPermit2Allowance(request: { owner: Address; value: bigint; deadline: bigint; signature: Hex; sender?: Account }): Promise<Hex>;
  /**
   * Invalidates `account`'s Permit2 nonce (sent by the account itself, which pays the gas: Permit2
   * has no signed invalidation of unordered nonces). `sent` is told the transaction before it is
   * waited for, so the caller can record it first. Rejects if it reverted.
   */
  invalidatePermit2Nonce(account: LocalAccount, nonce: bigint, sent?: (hash: Hex) => Promise<void>): Promise<Hex>;
  /**
   * What `invalidatePermit2Nonce` would cost `account` at most (wei), and the ETH it holds: the
   * caller sends it only when the account can pay.
   */
  permit2InvalidationCost(account: Address, nonce: bigint): Promise<{ cost: bigint; balance: bigint }>;
  /** The USDC contract's EIP-712 domain (name, version): what authorisations are signed under. */
  usdcDomain(): Promise<{ name: string; version: string; chainId: number; verifyingContract: Address }>;
  /** The latest block's number and timestamp (seconds): authorisation windows are chain time. */
  latestBlock(): Promise<{ number: bigint; timestamp: bigint }>;
  /**
   * Sandbox only: mines one empty block now, so a quiet anvil (it mines on demand) shows the
   * time that has passed. Throws on a real network, whose blocks come by themselves.
   */
  mineSandboxBlock(): Promise<void>;
  /** Verifies and settles x402 payments: in-process, or the configured facilitator URL. */
  facilitator: FacilitatorClient;
  /** The sandbox's demo seller (the paid API's payTo); null on a real network. */
  sandboxSeller: Address | null;
  /** The sandbox's anvil when this server started it (supervised: restarted when it dies); null otherwise. */
  sandboxProcess: SupervisedStatus | null;
  /** Stops what startChain started (anvil); a no-op for a remote network. */
  close(): Promise<void>;
}
