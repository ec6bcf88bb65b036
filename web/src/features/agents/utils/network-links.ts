// The connect page's faucet and explorer links for the configured network (chain.network),
// with the notes it shows where the network has neither (mainnet has no faucet, the sandbox
// chain has no public explorer).

/** The fields of the server's network view (chain.network) the links depend on. */
export interface LinkedNetwork {
  sandbox: boolean;
  usdc_address: string;
  explorer_url: string | null;
  faucet_url: string | null;
}

export interface NetworkLinks {
  faucetUrl: string | null;
  /** Where test USDC comes from when there is no faucet to link to; null when nothing needs saying. */
  faucetNote: string | null;
  /** The USDC token page, filtered to the agent's address when it has one. */
  explorerTokenUrl: string | null;
  explorerNote: string | null;
}

export const SANDBOX_FUNDING_NOTE = 'Test USDC on the sandbox comes from funding the agent from the dashboard.';
export const NO_EXPLORER_NOTE = 'The sandbox chain has no public block explorer.';

export function networkLinks(network: LinkedNetwork, evmAddress: string | null): NetworkLinks {
  const explorerUrl = network.explorer_url?.replace(/\/+$/, '') ?? null;
  const tokenPage = explorerUrl === null ? null : `${explorerUrl}/token/${network.usdc_address}`;
  return {
    faucetUrl: network.faucet_url,
    faucetNote: network.faucet_url === null && network.sandbox ? SANDBOX_FUNDING_NOTE : null,
    explorerTokenUrl: tokenPage === null || evmAddress === null ? tokenPage : `${tokenPage}?a=${evmAddress}`,
    explorerNote: explorerUrl === null ? NO_EXPLORER_NOTE : null,
  };
}
