/**
 * A pending authorization request as the consent services see it. A request belongs to the
 * first signed-in owner who opens it (the /oauth/authorize redirect carries no owner: the
 * browser may not be signed in yet); from then on it is found by that owner alone, and anybody
 * else gets the same 404 as for an id that does not exist. Its id is 32 random bytes, known only
 * to the browser that started it.
 */
import { AppError } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { isUuid } from '../agents/owned-agent';

export const AUTHORIZATION_REQUEST_NOT_FOUND = 'Authorization request not found';

export interface PendingRequest {
  id: string;
  clientId: string;
  clientName: string | null;
  clientUri: string | null;
  redirectUri: string;
  scopes: string[];
  resource: string;
  state: string | null;
  expiresAt: Date;
  decision: string | null;
}

export const requestSelect = {
  id: true,
  clientId: true,
  clientName: true,
  clientUri: true,
  redirectUri: true,
  scopes: true,
  resource: true,
  state: true,
  expiresAt: true,
  decision: true,
} as const;

export function requestNotFound(): AppError {
  return new AppError('NOT_FOUND', AUTHORIZATION_REQUEST_NOT_FOUND);
}

/** Gives an unclaimed request to `ownerId`, then finds it if it is theirs. */
export async function claimRequest(tx: TransactionClient, ownerId: string, requestId: string): Promise<PendingRequest> {
  if (!isUuid(ownerId) || requestId.length > 100) throw requestNotFound();
  await tx.oauthAuthorizationRequest.updateMany({ where: { id: requestId, ownerId: null }, data: { ownerId } });
  const request = await tx.oauthAuthorizationRequest.findFirst({ where: { id: requestId, ownerId }, select: requestSelect });
  if (!request) throw requestNotFound();
  return request;
}

/**
 * The owner's request, locked until the transaction ends so two decisions queue and the second
 * finds the first; refused when it was decided or has expired.
 */
export async function lockUndecidedRequest(tx: TransactionClient, ownerId: string, requestId: string, now: Date): Promise<PendingRequest> {
  await claimRequest(tx, ownerId, requestId);
  await tx.$queryRaw`SELECT "id" FROM "oauth_authorization_requests" WHERE "id" = ${requestId} FOR UPDATE`;
  const request = await tx.oauthAuthorizationRequest.findFirst({ where: { id: requestId, ownerId }, select: requestSelect });
  if (!request) throw requestNotFound();
  if (request.decision !== null) throw new AppError('CONFLICT', `This authorization request was already ${request.decision}`, { details: { reason: 'decided' } });
  if (request.expiresAt <= now) {
    throw new AppError('CONFLICT', 'This authorization request has expired: start connecting again from your assistant', { details: { reason: 'expired' } });
  }
  return request;
}
