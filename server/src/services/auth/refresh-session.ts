/**
 * Refresh-token rotation. Each refresh stamps rotatedAt on the presented token's row and
 * issues a new row in the same family. A token that was already rotated is being replayed,
 * by a thief or by the owner after a thief (we cannot tell which), so the whole family is
 * revoked: every refresh token and, through the per-request family check, every access
 * token of that sign-in stops working.
 */
import { AppError, type AuthSessionView } from '@purser/core';
import { userPublicSelect, type TransactionClient } from '@purser/db';
import { issueSession } from './issue-session';
import { revokeSessionFamily } from './revoke-session';
import { hashToken, type AuthDeps, type ClientInfo } from './session-tokens';

export const INVALID_REFRESH_TOKEN_MESSAGE = 'Invalid or expired refresh token. Please sign in again.';

export async function refreshSession(
  deps: AuthDeps,
  refreshToken: string,
  options: { client?: ClientInfo; now?: Date } = {},
): Promise<AuthSessionView> {
  const { prisma } = deps.db;
  const now = options.now ?? new Date();
  const session = await prisma.session.findUnique({
    where: { refreshTokenHash: hashToken(refreshToken) },
    select: { id: true, userId: true, familyId: true, expiresAt: true, rotatedAt: true, revokedAt: true },
  });
  if (!session || session.revokedAt) throw invalidRefreshToken();
  if (session.rotatedAt) {
    await revokeSessionFamily(prisma, session.familyId, now);
    throw invalidRefreshToken();
  }
  if (session.expiresAt <= now) throw invalidRefreshToken();

  const issued = await prisma.$transaction(async (tx: TransactionClient) => {
    // Guarded: of two requests presenting the same token at once, only one rotates it.
    const claimed = await tx.session.updateMany({
      where: { id: session.id, rotatedAt: null, revokedAt: null },
      data: { rotatedAt: now },
    });
    if (claimed.count !== 1) return null;
    const user = await tx.user.findUnique({ where: { id: session.userId }, select: userPublicSelect });
    if (!user) return null;
    return issueSession(deps, tx, user, { familyId: session.familyId, client: options.client, now });
  });
  if (!issued) {
    // The loser of a race on one token is a replay too.
    await revokeSessionFamily(prisma, session.familyId, now);
    throw invalidRefreshToken();
  }
  return issued;
}

function invalidRefreshToken(): AppError {
  return new AppError('UNAUTHORIZED', INVALID_REFRESH_TOKEN_MESSAGE);
}

