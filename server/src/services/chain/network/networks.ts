/** The real networks a chain connects to (connect-chain.ts); the sandbox answers as Base Sepolia. */
import type { Chain } from 'viem';
import { base, baseSepolia } from 'viem/chains';
import type { EvmNetwork, EvmNetworkInfo } from '../evm-chain';

export const BASE_SEPOLIA: EvmNetworkInfo = {
  network: 'eip155:84532',
  v1Name: 'base-sepolia',
  displayName: 'Base Sepolia',
  chainId: 84532,
  sandbox: false,
  usdcAddress: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
  explorerUrl: 'https://sepolia.basescan.org',
  faucetUrl: 'https://faucet.circle.com',
};

const BASE: EvmNetworkInfo = {
  network: 'eip155:8453',
  v1Name: 'base',
  displayName: 'Base',
  chainId: 8453,
  sandbox: false,
  usdcAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  explorerUrl: 'https://basescan.org',
  faucetUrl: null,
};

export const REAL_NETWORKS: Partial<Record<EvmNetwork, { info: EvmNetworkInfo; chain: Chain }>> = {
  [BASE_SEPOLIA.network]: { info: BASE_SEPOLIA, chain: baseSepolia },
  [BASE.network]: { info: BASE, chain: base },
};
