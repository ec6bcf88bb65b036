/**
 * What startChain (start-chain.ts) is started with: the sandbox and a real network's connection
 * both read it, so it sits below both.
 */
import type { Hex } from 'viem';
import type { Logger } from '../../../logger';
import type { EvmNetwork } from '../evm-chain';

export interface ChainConfig {
  /** Unset: start the sandbox (a local anvil). Set: that network's JSON-RPC URL. */
  rpcUrl?: string;
  /** CAIP-2 network of rpcUrl; default eip155:84532 (Base Sepolia). The sandbox is always eip155:84532. */
  network?: EvmNetwork;
  /** External facilitator URL. Unset: the in-process facilitator. */
  facilitatorUrl?: string;
  /** Pays gas for in-process settlement on a real network. Sandbox: an anvil dev account when unset. */
  facilitatorPrivateKey?: Hex;
  /**
   * Sandbox: an anvil another process started (server and worker in separate containers must
   * share one chain). Set: connect to it instead of starting one; its contracts are installed
   * when missing. It must run with the dev mnemonic, whose first account mints.
   */
  sandboxRpcUrl?: string;
  /** Sandbox: anvil's port (0 or unset: a free port). */
  sandboxPort?: number;
  /** Sandbox: anvil's state file, so balances survive restarts. */
  sandboxStateFile?: string;
}

export type ChainLogger = Pick<Logger, 'info' | 'warn' | 'error'>;
