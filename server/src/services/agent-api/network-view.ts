/** The configured network as the agent API and the connect page show it. */
import type { NetworkView } from '@purser/core';
import type { EvmChain } from '../chain/evm-chain';

export function networkView(chain: EvmChain): NetworkView {
  const { info } = chain;
  return {
    network: info.network,
    name: info.displayName,
    chain_id: info.chainId,
    sandbox: info.sandbox,
    usdc_address: info.usdcAddress,
    explorer_url: info.explorerUrl,
    faucet_url: info.faucetUrl,
  };
}
