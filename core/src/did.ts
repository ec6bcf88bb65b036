/**
 * Agent DIDs (`did:agnic:<agent id>`) and CAIP-10 account ids for the agents' EVM wallets.
 * A DID is public: it names an agent, it never authenticates one.
 */
import { z } from 'zod';

export const AGENT_DID_METHOD = 'agnic';
export const AGENT_DID_PREFIX = `did:${AGENT_DID_METHOD}:`;

/** Base Sepolia, the network agent wallets live on (spec section 9). */
export const BASE_SEPOLIA_CHAIN_ID = 84532;
/** CAIP-2 chain id of Base Sepolia. */
export const BASE_SEPOLIA_CAIP2 = `eip155:${BASE_SEPOLIA_CHAIN_ID}`;
/** The network name stored on agent wallets and shown in the API. */
export const BASE_SEPOLIA_NETWORK = 'base-sepolia';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EVM_ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;
const CAIP10_EIP155_PATTERN = /^eip155:([1-9][0-9]{0,31}):(0x[0-9a-fA-F]{40})$/;

/** `did:agnic:<id>` for an agent id (a UUID, kept lower-case so one agent has one DID). */
export function formatAgentDid(agentId: string): string {
  const id = agentId.toLowerCase();
  if (!UUID_PATTERN.test(id)) throw new Error(`Agent id must be a UUID, not ${agentId}`);
  return `${AGENT_DID_PREFIX}${id}`;
}

/** The agent id inside a `did:agnic:` DID, or null when the text is not one. */
export function parseAgentDid(did: string): string | null {
  if (!did.startsWith(AGENT_DID_PREFIX)) return null;
  const id = did.slice(AGENT_DID_PREFIX.length);
  return UUID_PATTERN.test(id) ? id : null;
}

export function isAgentDid(value: unknown): value is string {
  return typeof value === 'string' && parseAgentDid(value) !== null;
}

export const agentDidSchema = z.string().refine(isAgentDid, { error: 'Expected an agent DID (did:agnic:<uuid>)' });

export function isEvmAddress(value: unknown): value is string {
  return typeof value === 'string' && EVM_ADDRESS_PATTERN.test(value);
}

/** CAIP-10 account id, e.g. `eip155:84532:0xAbC...` (Base Sepolia by default). */
export function formatCaip10(address: string, chainId: number = BASE_SEPOLIA_CHAIN_ID): string {
  if (!isEvmAddress(address)) throw new Error(`Not an EVM address: ${address}`);
  if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new Error(`Not an EVM chain id: ${chainId}`);
  return `eip155:${chainId}:${address}`;
}

export function parseCaip10(accountId: string): { namespace: 'eip155'; chainId: number; address: string } | null {
  const match = CAIP10_EIP155_PATTERN.exec(accountId);
  if (!match) return null;
  const chainId = Number(match[1]);
  if (!Number.isSafeInteger(chainId)) return null;
  return { namespace: 'eip155', chainId, address: match[2] ?? '' };
}
