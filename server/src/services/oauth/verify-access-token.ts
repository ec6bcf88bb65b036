/**
 * What an OAuth access token may do on one of the two resources, for the agent API's
 * authentication (the hot path: one statement, purser_oauth_access_credentials in migration
 * *_oauth_connection_payments, read through the driver like purser_agent_request_credentials).
 * It answers the agent the token acts as, the agent's wallet at that read (the same snapshot an
 * API key's read gives), and the connection's scopes and cap; or why the token is refused.
 *
 * Every check runs on that read, never on a copy kept from an earlier request, so a revoked
 * connection or a suspended agent is refused by the very next request on every server. The
 * connection's last use is written at most every ten seconds: a hint for the console, not a trail.
 */
import { AppError, type OAuthScope } from '@purser/core';
import type { KyaTier } from '@purser/db';
import type { AppDeps } from '../../deps';
import type { AuthenticatedRequest } from '../agents/authenticate-agent';
import { AGENT_REQUEST_COLUMNS, walletSnapshotOf, type AgentRequestColumns, type AgentWalletSnapshot } from '../agents/agent-request-columns';
import { sameResource } from './oauth-discovery';
import { storedScopes } from './oauth-scopes';
import { hashOAuthSecret, looksLikeAccessToken } from './oauth-secrets';

const LAST_USED_RESOLUTION_MS = 10_000;

/** An access token that may act. */
export interface OAuthAccessGrant {
  tokenId: string;
  connectionId: string;
  clientId: string;
  agentId: string;
  did: string;
  ownerId: string;
  kyaTier: KyaTier;
  /** The token's scopes (core's OAUTH_SCOPES). */
  scopes: OAuthScope[];
  /** The connection's cap in atomic units; null when only the agent's own rules limit it (the gate enforces it). */
  capUnits: bigint | null;
  /** The resource the token is bound to (the one asked about). */
  resource: string;
  tokenExpiresAt: Date;
  /** The agent's wallet as this read found it. */
  wallet: AgentWalletSnapshot;
}

/**
 * Why a token may not act: not one of ours (unknown_token), past its hour, revoked (alone, with
 * its connection, or by a replay), its connection expired, the agent suspended or deleted, or
 * bound to the other resource. The agent states are the API's 403; every other one its 401.
 */
export type AccessTokenRefusal =
  | 'unknown_token'
  | 'token_expired'
  | 'token_revoked'
  | 'wrong_resource'
  | 'connection_revoked'
  | 'connection_expired'
  | 'agent_suspended'
  | 'agent_deleted';

export type AccessTokenVerdict = { ok: true; grant: OAuthAccessGrant } | { ok: false; refusal: AccessTokenRefusal };

/** A row of purser_oauth_access_credentials through the driver: text and booleans only. */
interface CredentialsRow extends AgentRequestColumns {
  token_id: string;
  scopes: string;
  token_expires_ms: string;
  token_revoked: boolean;
  connection_id: string;
  resource: string;
  client_id: string;
  cap_units: string | null;
  connection_expires_ms: string | null;
  connection_revoked: boolean;
  last_used_ms: string | null;
}

const epochMs = (column: string) => `(EXTRACT(EPOCH FROM ${column}) * 1000)::bigint::text`;

const CREDENTIALS = `
  SELECT token_id, array_to_string(token_scopes, ' ') AS scopes, ${epochMs('token_expires_at')} AS token_expires_ms,
         token_revoked_at IS NOT NULL AS token_revoked,
         connection_id, resource, client_id, cap_units::text,
         ${epochMs('connection_expires_at')} AS connection_expires_ms, connection_revoked_at IS NOT NULL AS connection_revoked,
         ${epochMs('last_used_at')} AS last_used_ms,
         ${AGENT_REQUEST_COLUMNS}
    FROM purser_oauth_access_credentials($1)`;

/** What the checks found, or the grant; `resourceUrl` is the resource being called. */
function judge(row: CredentialsRow | undefined, resourceUrl: string, now: number): AccessTokenVerdict {
  if (!row) return { ok: false, refusal: 'unknown_token' };
  if (row.token_revoked) return { ok: false, refusal: 'token_revoked' };
  if (Number(row.token_expires_ms) <= now) return { ok: false, refusal: 'token_expired' };
  if (!sameResource(row.resource, resourceUrl)) return { ok: false, refusal: 'wrong_resource' };
  if (row.connection_revoked) return { ok: false, refusal: 'connection_revoked' };
  if (row.connection_expires_ms !== null && Number(row.connection_expires_ms) <= now) return { ok: false, refusal: 'connection_expired' };
  if (row.status === 'deleted') return { ok: false, refusal: 'agent_deleted' };
  if (row.status !== 'active') return { ok: false, refusal: 'agent_suspended' };
  return {
    ok: true,
    grant: {
      tokenId: row.token_id,
      connectionId: row.connection_id,
      clientId: row.client_id,
      agentId: row.agent_id,
      did: row.did,
      ownerId: row.owner_id,
      kyaTier: row.kya_tier,
      scopes: storedScopes(row.scopes.split(' ')),
      capUnits: row.cap_units === null ? null : BigInt(row.cap_units),
      resource: row.resource,
      tokenExpiresAt: new Date(Number(row.token_expires_ms)),
      wallet: walletSnapshotOf(row),
    },
  };
}

export async function verifyAccessToken(deps: Pick<AppDeps, 'db'>, token: string, resourceUrl: string, now = new Date()): Promise<AccessTokenVerdict> {
  if (!looksLikeAccessToken(token) || token.length > 200) return { ok: false, refusal: 'unknown_token' };
  const [row] = await deps.db.query<CredentialsRow>(CREDENTIALS, [hashOAuthSecret(token)]);
  const verdict = judge(row, resourceUrl, now.getTime());
  if (verdict.ok && (row!.last_used_ms === null || now.getTime() - Number(row!.last_used_ms) >= LAST_USED_RESOLUTION_MS)) {
    await deps.db.prisma.$executeRaw`UPDATE oauth_connections SET last_used_at = ${now} WHERE id = ${verdict.grant.connectionId}::uuid`;
  }
  return verdict;
}

/** A short sentence for a refusal, for the `error_description` of a 401 or the message of a 403. */
export const ACCESS_TOKEN_REFUSALS: Record<AccessTokenRefusal, string> = {
  unknown_token: 'The access token is not valid',
  token_expired: 'The access token has expired',
  token_revoked: 'The access token was revoked',
  wrong_resource: 'The access token was issued for another resource',
  connection_revoked: 'The connection of this access token was revoked',
  connection_expired: 'The connection of this access token has expired',
  agent_suspended: 'This agent is suspended',
  agent_deleted: 'This agent has been deleted',
};

/**
 * An OAuth access token: valid, bound to the resource called, its connection live, its agent
 * active (verifyAccessToken above), as the agent API takes it. An X-Agent-DID sent beside it must
 * name the token's agent.
 */
export async function authenticateAccessToken(
  deps: Pick<AppDeps, 'db'>,
  token: string,
  { did, resourceUrl }: { did: string | undefined; resourceUrl: string },
  now = new Date(),
): Promise<AuthenticatedRequest> {
  const verdict = await verifyAccessToken(deps, token, resourceUrl, now);
  if (!verdict.ok) {
    const code = verdict.refusal === 'agent_suspended' || verdict.refusal === 'agent_deleted' ? 'AGENT_SUSPENDED' : 'UNAUTHORIZED';
    throw new AppError(code, ACCESS_TOKEN_REFUSALS[verdict.refusal]);
  }
  const { grant } = verdict;
  if (did !== undefined && did !== grant.did) throw new AppError('UNAUTHORIZED', 'The access token acts as another agent than X-Agent-DID names');
  return {
    agent: {
      agentId: grant.agentId,
      did: grant.did,
      ownerId: grant.ownerId,
      apiKeyId: null,
      kyaTier: grant.kyaTier,
      oauth: { connectionId: grant.connectionId, scopes: grant.scopes },
    },
    wallet: grant.wallet,
  };
}
