/**
 * Sign-out. Revoking a family ends one sign-in on every device it was refreshed to; the
 * global scope ends every sign-in of the owner. Access tokens of a revoked family are
 * refused from the next request on (authenticateOwner checks the family each time).
 */
import type { TransactionClient } from '@purser/db';
import { authenticateAccessToken } from './authenticate-owner';
import { hashToken, readAccessToken, type AuthDeps } from './session-tokens';

export interface SignOutInput {
  /** The access token of the request (header or cookie), if any. */
  accessToken?: string;
  /** A refresh token (body or cookie), used when there is no access token. */
  refreshToken?: string;
  /** 'global' signs out every session of the owner. */
  scope?: 'local' | 'global';
  now?: Date;
}

/** Revokes what the credentials point at; credentials pointing at nothing are a no-op. */
export async function revokeOwnerSession(deps: AuthDeps, input: SignOutInput): Promise<void> {
  const { prisma } = deps.db;
  const now = input.now ?? new Date();
  const target = await resolveFamily(deps, input);
  if (!target) return;
  if (input.scope === 'global') {
    // Only a live session may end every other one.
    if (!target.active) return;
    await prisma.session.updateMany({ where: { userId: target.userId, revokedAt: null }, data: { revokedAt: now } });
    return;
  }
  await revokeSessionFamily(prisma, target.familyId, now);
}

export async function revokeSessionFamily(prisma: TransactionClient, familyId: string, now: Date = new Date()): Promise<number> {
  const revoked = await prisma.session.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: now } });
  return revoked.count;
}

async function resolveFamily(
  deps: AuthDeps,
  input: SignOutInput,
): Promise<{ userId: string; familyId: string; active: boolean } | null> {
  if (input.accessToken) {
    const live = await authenticateAccessToken(deps, input.accessToken);
    if (live) return { ...live, active: true };
    const claims = await readAccessToken(deps.masterKey, input.accessToken);
    if (claims) return { ...claims, active: false };
  }
  if (input.refreshToken) {
    const session = await deps.db.prisma.session.findUnique({
      where: { refreshTokenHash: hashToken(input.refreshToken) },
      select: { userId: true, familyId: true, rotatedAt: true, revokedAt: true, expiresAt: true },
    });
    if (session) {
      const active = !session.revokedAt && !session.rotatedAt && session.expiresAt > new Date();
      return { userId: session.userId, familyId: session.familyId, active };
    }
  }
  return null;
}
