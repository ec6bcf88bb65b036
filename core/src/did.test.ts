import { describe, expect, it } from 'vitest';
import { agentDidSchema, formatAgentDid, formatCaip10, isAgentDid, parseAgentDid, parseCaip10 } from './did';

const ID = '0195f3c2-7d1e-7a4b-9c2d-1e2f3a4b5c6d';
const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('agent DIDs', () => {
  it('are did:agnic: followed by the lower-case agent id', () => {
    expect(formatAgentDid(ID.toUpperCase())).toBe(`did:agnic:${ID}`);
    expect(parseAgentDid(`did:agnic:${ID}`)).toBe(ID);
  });

  it('refuse other methods, missing ids and ids that are not UUIDs', () => {
    for (const bad of [`did:web:${ID}`, 'did:agnic:', 'did:agnic:agent-1', `did:agnic:${ID.toUpperCase()}`, `did:agnic:${ID}:x`]) {
      expect(parseAgentDid(bad), bad).toBeNull();
      expect(isAgentDid(bad), bad).toBe(false);
      expect(agentDidSchema.safeParse(bad).success, bad).toBe(false);
    }
    expect(() => formatAgentDid('agent-1')).toThrow(/UUID/);
    expect(isAgentDid(42)).toBe(false);
  });
});

describe('CAIP-10 account ids', () => {
  it('name an EVM address on Base Sepolia by default and parse back', () => {
    expect(formatCaip10(ADDRESS)).toBe(`eip155:84532:${ADDRESS}`);
    expect(parseCaip10(`eip155:84532:${ADDRESS}`)).toEqual({ namespace: 'eip155', chainId: 84532, address: ADDRESS });
    expect(formatCaip10(ADDRESS, 8453)).toBe(`eip155:8453:${ADDRESS}`);
  });

  it('refuse malformed addresses, chains and namespaces', () => {
    expect(() => formatCaip10('0x1234')).toThrow(/EVM address/);
    expect(() => formatCaip10(ADDRESS, 0)).toThrow(/chain id/);
    for (const bad of ['eip155:84532:0x1234', `solana:84532:${ADDRESS}`, `eip155:0:${ADDRESS}`, `eip155:84532:${ADDRESS}:x`]) {
      expect(parseCaip10(bad), bad).toBeNull();
    }
  });
});
