/**
 * Password sign-in. A wrong password and an unknown email give the same answer after the
 * same work (one argon2id verification), so the response does not reveal who has an account.
 */
import { AppError, INVALID_CREDENTIALS_MESSAGE, type AuthSessionView, type SignInInput } from '@purser/core';
import { userPublicSelect } from '@purser/db';
import { issueSession } from './issue-session';
import { normalizeEmail } from './normalize-email';
import { verifyPassword, verifyWithoutAccount } from './password-hashing';
import type { AuthDeps, ClientInfo } from './session-tokens';

export async function signInOwner(
  deps: AuthDeps,
  input: SignInInput,
  options: { client?: ClientInfo } = {},
): Promise<AuthSessionView> {
  const { prisma } = deps.db;
  const found = await prisma.user.findUnique({
    where: { email: normalizeEmail(input.email) },
    select: { ...userPublicSelect, passwordHash: true },
  });
  const valid = found ? await verifyPassword(found.passwordHash, input.password) : await verifyWithoutAccount(input.password);
  if (!found || !valid) throw new AppError('UNAUTHORIZED', INVALID_CREDENTIALS_MESSAGE);
  const { passwordHash: _hash, ...user } = found;
  return issueSession(deps, prisma, user, { client: options.client });
}
