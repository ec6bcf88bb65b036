/**
 * The owner denies an authorization request: it is decided (once) and the browser goes back to
 * the client with `error=access_denied`, its `state` and `iss`. Audited in the owner's chain.
 */
import type { OAuthDecisionView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import type { AppDeps } from '../../deps';
import { appendAuditEvent, withAuditRetry } from '../audit/append-audit-event';
import { authorizationRedirect } from './authorization-redirect';
import { lockUndecidedRequest } from './authorization-requests';

export async function denyAuthorizationRequest(deps: Pick<AppDeps, 'db' | 'publicUrl'>, ownerId: string, requestId: string, now = new Date()): Promise<OAuthDecisionView> {
  const request = await withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const pending = await lockUndecidedRequest(tx, ownerId, requestId, now);
    await tx.oauthAuthorizationRequest.update({ where: { id: pending.id }, data: { decision: 'denied', decidedAt: now }, select: { id: true } });
    await appendAuditEvent(tx, {
      actor: `owner:${ownerId}`,
      action: 'oauth_authorization.denied',
      subject: `oauth_client:${pending.clientId}`,
      ownerId,
      at: now,
      data: { client_id: pending.clientId, client_name: pending.clientName, scopes: pending.scopes, resource: pending.resource },
    });
    return pending;
  });
  const redirectUrl = authorizationRedirect(deps.publicUrl, request.redirectUri, {
    error: 'access_denied',
    error_description: 'The owner denied the request',
    state: request.state,
  });
  return { redirectUrl };
}
