/**
 * Connects to a real network (Base Sepolia or Base) over its JSON-RPC URL. Payments are verified
 * and settled by an external facilitator when its URL is configured, otherwise by the in-process
 * one, whose configured account pays the gas.
 */
import { HTTPFacilitatorClient } from '@x402/core/server';
import { createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { EvmChain } from '../evm-chain';
import { createLocalFacilitator } from '../facilitator/local-facilitator';
import { assembleChain } from './assemble-chain';
import type { ChainConfig, ChainLogger } from './chain-config';
import { createChainReadCache } from './chain-read-cache';
import { REAL_NETWORKS } from './networks';
import { createSerialWallet, type SerialWallet } from './serial-wallet';

/** How often cached reads (chain-read-cache.ts) poll the head: Base mines every 2 s. */
const NETWORK_HEAD_POLL_MS = 1_000;

export async function connectChain(config: ChainConfig, rpcUrl: string, logger?: ChainLogger): Promise<EvmChain> {
  const network = config.network ?? 'eip155:84532';
  const known = REAL_NETWORKS[network];
  if (!known) throw new Error(`Unsupported EVM network ${network}: use one of ${Object.keys(REAL_NETWORKS).join(', ')}`);
  const { info, chain } = known;
  // Reads made together (a balance's USDC and ETH) go to the node as one JSON-RPC batch.
  const reads = createChainReadCache({ pollingIntervalMs: NETWORK_HEAD_POLL_MS });
  const publicClient = createPublicClient({ chain, transport: reads.observe(http(rpcUrl, { batch: true })) });
  const chainId = await publicClient.getChainId();
  if (chainId !== info.chainId) throw new Error(`The RPC URL serves chain ${chainId}, not ${info.displayName} (${info.chainId})`);

  let facilitator: EvmChain['facilitator'];
  let gasPayer: SerialWallet | null = null;
  if (config.facilitatorUrl) {
    facilitator = new HTTPFacilitatorClient({ url: config.facilitatorUrl });
  } else if (config.facilitatorPrivateKey) {
    gasPayer = createSerialWallet(privateKeyToAccount(config.facilitatorPrivateKey), chain, rpcUrl);
    facilitator = createLocalFacilitator({ info, publicClient, wallet: gasPayer });
  } else {
    throw new Error(
      `Settling x402 payments on ${info.displayName} needs a facilitator: configure a facilitator URL, ` +
        'or a facilitator private key whose account pays the gas',
    );
  }
  logger?.info({ network: info.network, usdc: info.usdcAddress }, `Connected to ${info.displayName}`);
  return assembleChain({ info, rpcUrl, publicClient, facilitator, reads, sandbox: null, gasPayer, close: async () => {} });
}
