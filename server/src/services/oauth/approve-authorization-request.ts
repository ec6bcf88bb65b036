/**
 * The owner approves an authorization request on the consent page: the client will act as one
 * of their active agents, with some or all of the scopes it asked for, optionally within a
 * spending cap and until an expiry of this connection (the agent's own rules still apply: a cap
 * only narrows them). In one transaction the request is decided (once), the connection is
 * created, and a one-time authorization code (60 seconds, stored as its hash) is bound to the
 * request's PKCE challenge, client, redirect URI and resource; the grant is audited and
 * announced (connection.created). The answer is where the browser goes: the client's redirect
 * URI with `code`, `state` and `iss`.
 *
 * Refused, changing nothing: another owner's request (404), one decided or expired (409), an
 * agent that is not the owner's (404) or not active (403), scopes beyond the request's, an expiry
 * in the past.
 */
import { AppError, type OAuthConnectionView, type OAuthScope } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import type { AppDeps } from '../../deps';
import { withAuditRetry } from '../audit/append-audit-event';
import { lockOwnedAgent } from '../agents/owned-agent';
import { authorizationRedirect } from './authorization-redirect';
import { lockUndecidedRequest } from './authorization-requests';
import { recordConnectionChange, startConnectionEventDeliveries } from './connection-events';
import { connectionSelect, toConnectionView } from './connection-view';
import { hashOAuthSecret, newAuthorizationCode } from './oauth-secrets';

export const AUTHORIZATION_CODE_TTL_MS = 60_000;

/** The owner's choices (core's approveOAuthRequestInput, parsed: the cap in atomic units). */
export interface OAuthApproval {
  agentId: string;
  scopes: readonly OAuthScope[];
  capUnits?: bigint | null;
  expiresAt?: Date | null;
}

export type ConsentDeps = Pick<AppDeps, 'db' | 'publicUrl' | 'temporal' | 'logger'>;

export async function approveAuthorizationRequest(
  deps: ConsentDeps,
  ownerId: string,
  requestId: string,
  approval: OAuthApproval,
  now = new Date(),
): Promise<{ redirectUrl: string; connection: OAuthConnectionView }> {
  const capUnits = approval.capUnits ?? null;
  const expiresAt = approval.expiresAt ?? null;
  if (approval.scopes.length === 0) throw new AppError('VALIDATION_FAILED', 'Choose at least one scope');
  if (capUnits !== null && capUnits <= 0n) throw new AppError('VALIDATION_FAILED', 'The spending cap must be more than 0');
  if (expiresAt !== null && expiresAt <= now) throw new AppError('VALIDATION_FAILED', 'The connection must expire in the future');

  const decided = await withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const request = await lockUndecidedRequest(tx, ownerId, requestId, now);
    const beyond = approval.scopes.filter((scope) => !request.scopes.includes(scope));
    if (beyond.length > 0) throw new AppError('VALIDATION_FAILED', `The client did not ask for ${beyond.join(', ')}: grant only scopes it asked for`);
    const agent = await lockOwnedAgent(tx, ownerId, approval.agentId);
    if (agent.status !== 'active') throw new AppError('AGENT_SUSPENDED', 'This agent is suspended: reactivate it or choose another');

    const row = await tx.oauthConnection.create({
      data: {
        ownerId,
        agentId: agent.id,
        clientId: request.clientId,
        clientName: request.clientName,
        clientUri: request.clientUri,
        redirectUri: request.redirectUri,
        resource: request.resource,
        scopes: [...approval.scopes],
        capUnits,
        expiresAt,
        createdAt: now,
      },
      select: connectionSelect,
    });
    const code = newAuthorizationCode();
    await tx.oauthAuthorizationRequest.update({
      where: { id: request.id },
      data: { decision: 'approved', decidedAt: now, connectionId: row.id, codeHash: hashOAuthSecret(code), codeExpiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_TTL_MS) },
      select: { id: true },
    });
    const connection = toConnectionView(row, 0n); // made just now: nothing spent through it yet
    const deliveryIds = await recordConnectionChange(tx, { actor: `owner:${ownerId}`, action: 'created', ownerId, connection, event: 'connection.created', at: now });
    return { code, request, connection, deliveryIds };
  });
  await startConnectionEventDeliveries(deps, decided.deliveryIds);
  const redirectUrl = authorizationRedirect(deps.publicUrl, decided.request.redirectUri, { code: decided.code, state: decided.request.state });
  return { redirectUrl, connection: decided.connection };
}
