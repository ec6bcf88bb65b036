/**
 * Who is calling the agent API: `X-Agent-DID` plus `Authorization: Bearer <agent API key>`.
 * The DID is public, so it only selects the agent; the key must be one issued to that agent.
 * Missing or wrong credentials are 401 whatever was wrong (no hint whether the DID exists);
 * an agent that is suspended or deleted gets 403 AGENT_SUSPENDED once its key is shown to be
 * its own (also a key revoked by deletion or rotation: the status is public anyway, through
 * the credential status list).
 */
import { AppError, isAgentDid } from '@purser/core';
import type { AgentStatus, KyaTier } from '@purser/db';
import type { AppDeps } from '../../deps';
import { agentApiKeyPrefix, hashAgentApiKey } from './agent-api-key-secret';
import { sameSecretHash } from '../../secrets';

/** lastUsedAt is a hint for the owner, not an audit trail: one write a minute per key is enough. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface AgentCredentials {
  /** The X-Agent-DID header. */
  did?: string | string[];
  /** The Authorization header. */
  authorization?: string | string[];
}

export interface AuthenticatedAgent {
  agentId: string;
  did: string;
  ownerId: string;
  apiKeyId: string;
  kyaTier: KyaTier;
}

const INVALID = 'Invalid agent DID or API key';

/**
 * The agent's wallet as the authentication read it, in the same statement: its balances at the
 * start of the request. A route that does nothing else may answer them (GET /balance); anything
 * that moves money, or answers after doing so, reads the wallet again.
 */
export interface AgentWalletSnapshot {
  balanceUsdc: bigint;
  balanceUsdt: bigint;
  evmAddress: string | null;
}

export interface AuthenticatedRequest {
  agent: AuthenticatedAgent;
  wallet: AgentWalletSnapshot;
}

/**
 * A row of purser_agent_request_credentials (migration 20261206114100_agent_request_in_one_statement),
 * read through the driver (Database.query): text and booleans only, which both drivers answer alike.
 */
interface CredentialsRow {
  key_id: string;
  key_hash: string;
  revoked: boolean;
  /** Milliseconds since the epoch, or null when the key was never used. */
  last_used_ms: string | null;
  agent_id: string;
  did: string;
  owner_id: string;
  status: AgentStatus;
  kya_tier: KyaTier;
  /** Null when the agent has no wallet row (the LEFT JOIN found none). */
  balance_usdc: string | null;
  balance_usdt: string | null;
  evm_wallet_address: string | null;
}

const CREDENTIALS = `
  SELECT key_id, key_hash, revoked_at IS NOT NULL AS revoked,
         (EXTRACT(EPOCH FROM last_used_at) * 1000)::bigint::text AS last_used_ms,
         agent_id, did, owner_id, status, kya_tier,
         balance_usdc::text, balance_usdt::text, evm_wallet_address
    FROM purser_agent_request_credentials($1)`;

function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value.trim() : undefined;
}

export async function authenticateAgent(deps: Pick<AppDeps, 'db'>, credentials: AgentCredentials, now = new Date()): Promise<AuthenticatedAgent> {
  return (await authenticateAgentRequest(deps, credentials, now)).agent;
}

/**
 * authenticateAgent, answering also the wallet read with the key. Every agent API request runs
 * this first, so it is one statement: the key, its agent and the agent's wallet in one read
 * whose plan the database keeps (see the migration), then nothing else but the minutely
 * lastUsedAt write. Each check runs on what that read answers, never on a copy kept from an
 * earlier request, so a revoked key or a suspended agent is refused at once by every server.
 */
export async function authenticateAgentRequest(deps: Pick<AppDeps, 'db'>, credentials: AgentCredentials, now = new Date()): Promise<AuthenticatedRequest> {
  const did = single(credentials.did);
  if (!did) throw new AppError('UNAUTHORIZED', 'The X-Agent-DID header is required');
  const bearer = /^Bearer\s+(\S+)$/i.exec(single(credentials.authorization) ?? '')?.[1];
  if (!bearer) throw new AppError('UNAUTHORIZED', 'Authorization: Bearer <agent API key> is required');
  const prefix = agentApiKeyPrefix(bearer);
  if (!isAgentDid(did) || !prefix) throw new AppError('UNAUTHORIZED', INVALID);

  // Past Prisma's client: on this read, every agent API request's first, its work cost more CPU
  // than the database's.
  const [key] = await deps.db.query<CredentialsRow>(CREDENTIALS, [prefix]);
  if (!key || !sameSecretHash(key.key_hash, hashAgentApiKey(bearer)) || key.did !== did) {
    throw new AppError('UNAUTHORIZED', INVALID);
  }
  if (key.status === 'suspended') throw new AppError('AGENT_SUSPENDED', 'This agent is suspended');
  if (key.status === 'deleted') throw new AppError('AGENT_SUSPENDED', 'This agent has been deleted');
  if (key.revoked) throw new AppError('UNAUTHORIZED', INVALID);

  if (key.last_used_ms === null || now.getTime() - Number(key.last_used_ms) >= LAST_USED_RESOLUTION_MS) {
    await deps.db.prisma.$executeRaw`UPDATE agent_api_keys SET last_used_at = ${now} WHERE id = ${key.key_id}::uuid`;
  }
  return {
    agent: { agentId: key.agent_id, did: key.did, ownerId: key.owner_id, apiKeyId: key.key_id, kyaTier: key.kya_tier },
    wallet: { balanceUsdc: BigInt(key.balance_usdc ?? 0), balanceUsdt: BigInt(key.balance_usdt ?? 0), evmAddress: key.evm_wallet_address },
  };
}
