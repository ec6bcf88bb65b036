/**
 * Opens a session (or continues a family on refresh): stores the refresh token's hash as a
 * new sessions row and signs an access token naming the family. `sessionView` answers an
 * existing row again (a refresh token re-presented within its reuse interval).
 */
import { randomUUID } from 'node:crypto';
import { ACCESS_TOKEN_TTL_SECONDS, type AuthSessionView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { toAuthUserView, type PublicUser } from './get-owner-user';
import {
  hashToken,
  newRefreshToken,
  REFRESH_TOKEN_TTL_MS,
  signAccessToken,
  type AuthDeps,
  type ClientInfo,
} from './session-tokens';

const USER_AGENT_MAX_LENGTH = 512;

export interface IssueSessionOptions {
  /** The family to continue (refresh); a new family when omitted (sign-in, sign-up). */
  familyId?: string;
  /** The refresh token to store (a refresh's derived successor); a random one when omitted. */
  refreshToken?: string;
  client?: ClientInfo;
  now?: Date;
}

export async function issueSession(
  deps: Pick<AuthDeps, 'masterKey'>,
  prisma: TransactionClient,
  user: PublicUser,
  options: IssueSessionOptions = {},
): Promise<AuthSessionView> {
  const now = options.now ?? new Date();
  const familyId = options.familyId ?? randomUUID();
  const refreshToken = options.refreshToken ?? newRefreshToken();
  await prisma.session.create({
    data: {
      userId: user.id,
      familyId,
      refreshTokenHash: hashToken(refreshToken),
      expiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
      userAgent: options.client?.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
      ipAddress: options.client?.ipAddress ?? null,
    },
    select: { id: true },
  });
  return sessionView(deps, user, { familyId, refreshToken, now });
}

/** The answer for a stored session: its refresh token and a new access token for its family. */
export async function sessionView(
  deps: Pick<AuthDeps, 'masterKey'>,
  user: PublicUser,
  session: { familyId: string; refreshToken: string; now: Date },
): Promise<AuthSessionView> {
  const { familyId, refreshToken, now } = session;
  const access = await signAccessToken(deps.masterKey, { userId: user.id, familyId }, now);
  return {
    access_token: access.token,
    refresh_token: refreshToken,
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    expires_at: access.expiresAt,
    token_type: 'bearer',
    user: toAuthUserView(user),
  };
}
