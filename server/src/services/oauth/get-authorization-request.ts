/**
 * What the consent page shows of an authorization request: the client (its id, and the name and
 * home page it claims), where the browser goes afterwards, the scopes asked for and the resource.
 * Opening it makes it the signed-in owner's (authorization-requests.ts).
 */
import type { OAuthAuthorizationRequestView } from '@purser/core';
import type { AppDeps } from '../../deps';
import { claimRequest, type PendingRequest } from './authorization-requests';
import { storedScopes } from './oauth-scopes';

export async function getAuthorizationRequest(deps: Pick<AppDeps, 'db'>, ownerId: string, requestId: string, now = new Date()): Promise<OAuthAuthorizationRequestView> {
  return toRequestView(await claimRequest(deps.db.prisma, ownerId, requestId), now);
}

export function toRequestView(request: PendingRequest, now: Date): OAuthAuthorizationRequestView {
  const status = request.decision === 'approved' || request.decision === 'denied' ? request.decision : request.expiresAt <= now ? 'expired' : 'pending';
  return {
    requestId: request.id,
    status,
    client: { id: request.clientId, name: request.clientName, uri: request.clientUri },
    redirectUri: request.redirectUri,
    scopes: storedScopes(request.scopes),
    resource: request.resource,
    expiresAt: request.expiresAt.toISOString(),
  };
}
