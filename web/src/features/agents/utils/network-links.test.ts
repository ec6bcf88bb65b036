import { describe, expect, it } from 'vitest';
import { NO_EXPLORER_NOTE, SANDBOX_FUNDING_NOTE, networkLinks, type LinkedNetwork } from './network-links';

// The networks as the server's chain.network answers them (server/src/services/chain/network/networks.ts, the sandbox's in chain/sandbox/start-sandbox-chain.ts).
const SEPOLIA_USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const BASE_SEPOLIA: LinkedNetwork = { sandbox: false, usdc_address: SEPOLIA_USDC, explorer_url: 'https://sepolia.basescan.org', faucet_url: 'https://faucet.circle.com' };
const BASE: LinkedNetwork = { sandbox: false, usdc_address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', explorer_url: 'https://basescan.org', faucet_url: null };
const SANDBOX: LinkedNetwork = { sandbox: true, usdc_address: SEPOLIA_USDC, explorer_url: null, faucet_url: null };

const AGENT_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

describe('networkLinks', () => {
  it('links Base Sepolia to its faucet and to the USDC token page on sepolia.basescan.org filtered to the agent', () => {
    expect(networkLinks(BASE_SEPOLIA, AGENT_ADDRESS)).toEqual({
      faucetUrl: 'https://faucet.circle.com',
      faucetNote: null,
      explorerTokenUrl: `https://sepolia.basescan.org/token/${SEPOLIA_USDC}?a=${AGENT_ADDRESS}`,
      explorerNote: null,
    });
  });

  it('gives Base mainnet no faucet and the USDC token page on basescan.org', () => {
    expect(networkLinks(BASE, AGENT_ADDRESS)).toEqual({
      faucetUrl: null,
      faucetNote: null,
      explorerTokenUrl: `https://basescan.org/token/0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913?a=${AGENT_ADDRESS}`,
      explorerNote: null,
    });
  });

  it('gives the sandbox no links, saying test USDC comes from dashboard funding and there is no public explorer', () => {
    expect(networkLinks(SANDBOX, AGENT_ADDRESS)).toEqual({
      faucetUrl: null,
      faucetNote: SANDBOX_FUNDING_NOTE,
      explorerTokenUrl: null,
      explorerNote: NO_EXPLORER_NOTE,
    });
  });

  it('links the unfiltered token page for an agent without a Base address', () => {
    expect(networkLinks(BASE_SEPOLIA, null).explorerTokenUrl).toBe(`https://sepolia.basescan.org/token/${SEPOLIA_USDC}`);
  });
});
