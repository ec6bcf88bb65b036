/**
 * Starts the EVM chain the server works with (see evm-chain.ts). Without an RPC URL it is the
 * sandbox: a local anvil with chain id 84532 (Base Sepolia's), Circle's USDC at Base Sepolia's
 * USDC address, Multicall3, and anvil's dev accounts as token admin, facilitator and demo
 * seller, so x402 payments work offline exactly as on Base Sepolia. With an RPC URL it connects
 * to Base Sepolia or Base. Either way payments are verified and settled by an in-process
 * facilitator, or by an external one when its URL is configured.
 */
import type { EvmChain } from './evm-chain';
import type { ChainConfig, ChainLogger } from './network/chain-config';
import { connectChain } from './network/connect-chain';
import { startSandboxChain } from './sandbox/start-sandbox-chain';

export type { ChainConfig, ChainLogger } from './network/chain-config';
export { ANVIL_MNEMONIC } from './sandbox/start-sandbox-chain';

export async function startChain(config: ChainConfig, logger?: ChainLogger): Promise<EvmChain> {
  return config.rpcUrl ? connectChain(config, config.rpcUrl, logger) : startSandboxChain(config, logger);
}
