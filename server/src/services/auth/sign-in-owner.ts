/**
 * Password sign-in. A wrong password and an unknown email give the same answer after the
 * same work (one argon2id verification), so the response does not reveal who has an account.
 * Each attempt is first counted against the email's back-off (sign-in-throttle.ts), which
 * refuses it with 429 before any password is checked while the email is locked.
 */
import { AppError, INVALID_CREDENTIALS_MESSAGE, type AuthSessionView, type SignInInput } from '@purser/core';
import { userPublicSelect } from '@purser/db';
import { issueSession } from './issue-session';
import { normalizeEmail } from './normalize-email';
import { verifyPassword, verifyWithoutAccount } from './password-hashing';
import type { AuthDeps, ClientInfo } from './session-tokens';
import { claimSignInAttempt, clearSignInAttempts, DEFAULT_SIGN_IN_THROTTLE, signInThrottleKey, type SignInThrottleSettings } from './sign-in-throttle';

export async function signInOwner(
  deps: AuthDeps,
  input: SignInInput,
  options: { client?: ClientInfo; throttle?: SignInThrottleSettings } = {},
): Promise<AuthSessionView> {
  const { prisma } = deps.db;
  const email = normalizeEmail(input.email);
  const throttleKey = signInThrottleKey(deps.masterKey, email);
  await claimSignInAttempt(prisma, throttleKey, options.throttle ?? DEFAULT_SIGN_IN_THROTTLE);
  const found = await prisma.user.findUnique({
    where: { email },
    select: { ...userPublicSelect, passwordHash: true },
  });
  const valid = found ? await verifyPassword(found.passwordHash, input.password) : await verifyWithoutAccount(input.password);
  if (!found || !valid) throw new AppError('UNAUTHORIZED', INVALID_CREDENTIALS_MESSAGE);
  await clearSignInAttempts(prisma, throttleKey);
  const { passwordHash: _hash, ...user } = found;
  return issueSession(deps, prisma, user, { client: options.client });
}
