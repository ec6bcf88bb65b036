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

interface KeyRow {
  id: string;
  key_hash: string;
  revoked_at: Date | null;
  last_used_at: Date | null;
  agent_id: string;
  did: string;
  owner_id: string;
  status: AgentStatus;
  kya_tier: KyaTier;
}

function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value.trim() : undefined;
}

export async function authenticateAgent(deps: Pick<AppDeps, 'db'>, credentials: AgentCredentials, now = new Date()): Promise<AuthenticatedAgent> {
  const did = single(credentials.did);
  if (!did) throw new AppError('UNAUTHORIZED', 'The X-Agent-DID header is required');
  const bearer = /^Bearer\s+(\S+)$/i.exec(single(credentials.authorization) ?? '')?.[1];
  if (!bearer) throw new AppError('UNAUTHORIZED', 'Authorization: Bearer <agent API key> is required');
  const prefix = agentApiKeyPrefix(bearer);
  if (!isAgentDid(did) || !prefix) throw new AppError('UNAUTHORIZED', INVALID);

  // One indexed read for the key and its agent together: Prisma's nested select would be two.
  const [key] = await deps.db.prisma.$queryRaw<KeyRow[]>`
    SELECT k.id, k.key_hash, k.revoked_at, k.last_used_at,
           a.id AS agent_id, a.did, a.owner_id, a.status::text AS status, a.kya_tier::text AS kya_tier
      FROM agent_api_keys k JOIN agents a ON a.id = k.agent_id
     WHERE k.prefix = ${prefix}`;
  if (!key || !sameSecretHash(key.key_hash, hashAgentApiKey(bearer)) || key.did !== did) {
    throw new AppError('UNAUTHORIZED', INVALID);
  }
  if (key.status === 'suspended') throw new AppError('AGENT_SUSPENDED', 'This agent is suspended');
  if (key.status === 'deleted') throw new AppError('AGENT_SUSPENDED', 'This agent has been deleted');
  if (key.revoked_at) throw new AppError('UNAUTHORIZED', INVALID);

  if (!key.last_used_at || now.getTime() - key.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS) {
    await deps.db.prisma.agentApiKey.update({ where: { id: key.id }, data: { lastUsedAt: now }, select: { id: true } });
  }
  return { agentId: key.agent_id, did: key.did, ownerId: key.owner_id, apiKeyId: key.id, kyaTier: key.kya_tier };
}
