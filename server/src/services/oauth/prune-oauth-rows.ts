/**
 * Rows the OAuth server no longer needs, removed as it goes rather than by a job of their own:
 * a connection's tokens a day past their expiry, when it refreshes (a spent refresh token is kept
 * until then, so its replay is still caught while it could matter), and authorization requests a
 * day past theirs, a batch at a time when a new one is stored. What remains of a removed token or
 * code is the answer "not valid", which is what an expired one gets.
 */
import type { TransactionClient } from '@purser/db';

const KEEP_AFTER_EXPIRY_MS = 24 * 60 * 60_000;
const REQUEST_BATCH = 100;

export async function pruneConnectionTokens(tx: TransactionClient, connectionId: string, now: Date): Promise<void> {
  await tx.oauthToken.deleteMany({ where: { connectionId, expiresAt: { lt: new Date(now.getTime() - KEEP_AFTER_EXPIRY_MS) } } });
}

export async function pruneAuthorizationRequests(tx: TransactionClient, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - KEEP_AFTER_EXPIRY_MS);
  await tx.$executeRaw`
    DELETE FROM "oauth_authorization_requests"
     WHERE "id" IN (SELECT "id" FROM "oauth_authorization_requests" WHERE "expires_at" < ${cutoff} LIMIT ${REQUEST_BATCH})`;
}
