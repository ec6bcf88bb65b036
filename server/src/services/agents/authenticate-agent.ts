/**
 * Who is calling the agent API: `X-Agent-DID` plus `Authorization: Bearer <agent API key>`.
 * The DID is public, so it only selects the agent; the key must be one issued to that agent.
 * Missing or wrong credentials are 401 whatever was wrong (no hint whether the DID exists);
 * an agent that is suspended or deleted gets 403 AGENT_SUSPENDED once its key is shown to be
 * its own (also a key revoked by deletion or rotation: the status is public anyway, through
 * the credential status list).
 */
import { AppError, isAgentDid } from '@purser/core';
import type { KyaTier } from '@purser/db';
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

  const key = await deps.db.prisma.agentApiKey.findUnique({
    where: { prefix },
    select: {
      id: true,
      keyHash: true,
      revokedAt: true,
      lastUsedAt: true,
      agent: { select: { id: true, did: true, ownerId: true, status: true, kyaTier: true } },
    },
  });
  if (!key || !sameSecretHash(key.keyHash, hashAgentApiKey(bearer)) || key.agent.did !== did) {
    throw new AppError('UNAUTHORIZED', INVALID);
  }
  if (key.agent.status === 'suspended') throw new AppError('AGENT_SUSPENDED', 'This agent is suspended');
  if (key.agent.status === 'deleted') throw new AppError('AGENT_SUSPENDED', 'This agent has been deleted');
  if (key.revokedAt) throw new AppError('UNAUTHORIZED', INVALID);

  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await deps.db.prisma.agentApiKey.update({ where: { id: key.id }, data: { lastUsedAt: now }, select: { id: true } });
  }
  return { agentId: key.agent.id, did: key.agent.did, ownerId: key.agent.ownerId, apiKeyId: key.id, kyaTier: key.agent.kyaTier };
}
