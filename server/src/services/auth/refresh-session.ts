/**
 * Refresh-token rotation. Each refresh stamps rotatedAt on the presented token's row and stores
 * its successor (successorRefreshToken) as a new row in the same family, so a family has one
 * active refresh token at a time.
 *
 * A rotated token presented again is a replay, by a thief or by the owner after a thief (we
 * cannot tell which), so the whole family is revoked: every refresh token and, through the
 * per-request family check, every access token of that sign-in stops working.
 *
 * Except within the reuse interval after its rotation (10 s by default, as GoTrue's
 * GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL). A browser re-presents a token it never learnt
 * was rotated when a page is reloaded or left while its refresh is in flight, and two tabs
 * refreshing at once present the same token. Such a reuse is answered with the family's current
 * refresh token, the very one the rotation already issued (recomputed from the presented token,
 * since only hashes are stored), and a new access token. Nothing is written: no session is
 * extended, a revoked family stays revoked, and the family keeps exactly one active token.
 *
 * Why not rotate once more from the family's latest token instead: the browser keeps the cookie
 * of whichever concurrent answer it processes last. Had the second answer rotated again, the
 * first answer's token would be spent, and a browser left holding it would revoke its own family
 * at its next refresh, long after the interval. Every answer within the interval carries the
 * same token, so the order does not matter.
 */
import { AppError, type AuthSessionView } from '@purser/core';
import { userPublicSelect, type TransactionClient } from '@purser/db';
import { issueSession, sessionView } from './issue-session';
import { revokeSessionFamily } from './revoke-session';
import { hashToken, successorRefreshToken, type AuthDeps, type ClientInfo } from './session-tokens';

export const INVALID_REFRESH_TOKEN_MESSAGE = 'Invalid or expired refresh token. Please sign in again.';

export interface SessionRefreshSettings {
  /** How long after its rotation a refresh token may be presented again; 0 never allows it. */
  reuseIntervalMs: number;
  /** The clock rotations and the reuse interval are measured by (tests move it). */
  now: () => Date;
}

export const DEFAULT_SESSION_REFRESH: SessionRefreshSettings = { reuseIntervalMs: 10_000, now: () => new Date() };

/**
 * How many successors a reuse follows to the family's current token. Each step is a refresh
 * made after the presented token's rotation and within its interval, so a few suffice; a
 * longer chain is refused, not followed.
 */
const MAX_SUCCESSOR_STEPS = 10;

const sessionSelect = { userId: true, familyId: true, expiresAt: true, rotatedAt: true, revokedAt: true } as const;

interface StoredSession {
  userId: string;
  familyId: string;
  expiresAt: Date;
  rotatedAt: Date | null;
  revokedAt: Date | null;
}

export async function refreshSession(
  deps: AuthDeps,
  refreshToken: string,
  options: { client?: ClientInfo; now?: Date; reuseIntervalMs?: number } = {},
): Promise<AuthSessionView> {
  const { prisma } = deps.db;
  const now = options.now ?? new Date();
  const reuse = { now, reuseIntervalMs: options.reuseIntervalMs ?? DEFAULT_SESSION_REFRESH.reuseIntervalMs };
  const tokenHash = hashToken(refreshToken);
  const session = await findSession(prisma, tokenHash);
  if (!session || session.revokedAt) throw invalidRefreshToken();
  if (session.rotatedAt) return reuseRotatedToken(deps, refreshToken, { familyId: session.familyId, rotatedAt: session.rotatedAt }, reuse);
  if (session.expiresAt <= now) throw invalidRefreshToken();

  const issued = await prisma.$transaction(async (tx: TransactionClient) => {
    // Guarded: of two requests presenting the same token at once, only one rotates it.
    const claimed = await tx.session.updateMany({
      where: { refreshTokenHash: tokenHash, rotatedAt: null, revokedAt: null },
      data: { rotatedAt: now },
    });
    if (claimed.count !== 1) return null;
    const user = await tx.user.findUnique({ where: { id: session.userId }, select: userPublicSelect });
    // Rolls the claim back: a family without its successor row could never be refreshed again.
    if (!user) throw invalidRefreshToken();
    const successor = successorRefreshToken(deps.masterKey, refreshToken);
    return issueSession(deps, tx, user, { familyId: session.familyId, refreshToken: successor, client: options.client, now });
  });
  if (issued) return issued;

  // Another request rotated or revoked the token first. Its transaction has committed (the
  // guarded update waited for it before finding nothing to claim), successor row included, so
  // this is the two-tabs case and is judged like any reuse.
  const settled = await findSession(prisma, tokenHash);
  if (!settled?.rotatedAt || settled.revokedAt) throw invalidRefreshToken();
  return reuseRotatedToken(deps, refreshToken, { familyId: settled.familyId, rotatedAt: settled.rotatedAt }, reuse);
}

/**
 * A rotated token presented again: within the reuse interval, the family's current session;
 * after it, a replay that revokes the family.
 */
async function reuseRotatedToken(
  deps: AuthDeps,
  refreshToken: string,
  spent: { familyId: string; rotatedAt: Date },
  settings: { now: Date; reuseIntervalMs: number },
): Promise<AuthSessionView> {
  const { prisma } = deps.db;
  const { now } = settings;
  if (now.getTime() - spent.rotatedAt.getTime() >= settings.reuseIntervalMs) {
    await revokeSessionFamily(prisma, spent.familyId, now);
    throw invalidRefreshToken();
  }
  // Follow the successors to the active one: within the interval the owner may already have
  // refreshed again with the token the lost answer carried (the page loaded right after).
  let token = refreshToken;
  for (let step = 0; step < MAX_SUCCESSOR_STEPS; step++) {
    token = successorRefreshToken(deps.masterKey, token);
    const next = await findSession(prisma, hashToken(token));
    // A revoked successor is a signed-out or replayed family: it stays that way. A missing one
    // (a token rotated before successors were derived) cannot lead to the current token: refused.
    if (!next || next.revokedAt || next.familyId !== spent.familyId) throw invalidRefreshToken();
    if (next.rotatedAt) continue;
    if (next.expiresAt <= now) throw invalidRefreshToken();
    const user = await prisma.user.findUnique({ where: { id: next.userId }, select: userPublicSelect });
    if (!user) throw invalidRefreshToken();
    return sessionView(deps, user, { familyId: next.familyId, refreshToken: token, now });
  }
  throw invalidRefreshToken();
}

function findSession(prisma: TransactionClient, refreshTokenHash: string): Promise<StoredSession | null> {
  return prisma.session.findUnique({ where: { refreshTokenHash }, select: sessionSelect });
}

function invalidRefreshToken(): AppError {
  return new AppError('UNAUTHORIZED', INVALID_REFRESH_TOKEN_MESSAGE);
}
