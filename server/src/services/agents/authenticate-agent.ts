/**
 * Who is calling the agent API: `X-Agent-DID` plus `Authorization: Bearer <agent API key>` (an
 * OAuth access token alone is the other way in: oauth/verify-access-token.ts, authenticateAccessToken).
 * The DID is public, so it only selects the agent; the key must be one issued to that agent.
 * Missing or wrong credentials are 401 whatever was wrong (no hint whether the DID exists);
 * an agent that is suspended or deleted gets 403 AGENT_SUSPENDED once its key is shown to be
 * its own (also a key revoked by deletion or rotation: the status is public anyway, through
 * the credential status list).
 */
import { AppError, isAgentDid, type OAuthScope } from '@purser/core';
import type { KyaTier } from '@purser/db';
import type { AppDeps } from '../../deps';
import { agentApiKeyPrefix, hashAgentApiKey } from './agent-api-key-secret';
import { AGENT_REQUEST_COLUMNS, walletSnapshotOf, type AgentRequestColumns, type AgentWalletSnapshot } from './agent-request-columns';

export type { AgentWalletSnapshot } from './agent-request-columns';
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
  /** The API key the agent called with; null when it called with an OAuth access token. */
  apiKeyId: string | null;
  kyaTier: KyaTier;
  /**
   * The OAuth connection whose access token the agent called with, and the token's scopes: the
   * routes and tools it may use, and the cap its payments count against (intents carry it).
   */
  oauth?: { connectionId: string; scopes: readonly OAuthScope[] };
}

const INVALID = 'Invalid agent DID or API key';

export interface AuthenticatedRequest {
  agent: AuthenticatedAgent;
  wallet: AgentWalletSnapshot;
}

/**
 * A row of purser_agent_request_credentials (migration 20261206114100_agent_request_in_one_statement),
 * read through the driver (Database.query): text and booleans only, which both drivers answer alike.
 */
interface CredentialsRow extends AgentRequestColumns {
  key_id: string;
  key_hash: string;
  revoked: boolean;
  /** Milliseconds since the epoch, or null when the key was never used. */
  last_used_ms: string | null;
}

const CREDENTIALS = `
  SELECT key_id, key_hash, revoked_at IS NOT NULL AS revoked,
         (EXTRACT(EPOCH FROM last_used_at) * 1000)::bigint::text AS last_used_ms,
         ${AGENT_REQUEST_COLUMNS}
    FROM purser_agent_request_credentials($1)`;

export function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value.trim() : undefined;
}

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerOf(authorization: string | string[] | undefined): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(single(authorization) ?? '')?.[1];
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
  const bearer = bearerOf(credentials.authorization);
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
    wallet: walletSnapshotOf(key),
  };
}

/**
 * Refuses a call the agent's credential does not cover: an access token without `scope`
 * (403 INSUFFICIENT_SCOPE). An API key covers every call.
 */
export function requireScope(agent: AuthenticatedAgent, scope: OAuthScope): void {
  if (!agent.oauth || agent.oauth.scopes.includes(scope)) return;
  throw new AppError('INSUFFICIENT_SCOPE', `This access token does not have the ${scope} scope this call needs; the owner can grant it when the host connects again`, {
    details: { scope },
  });
}
