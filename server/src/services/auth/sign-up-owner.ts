/**
 * Sign-up with an invitation code. The code's use is consumed by a guarded UPDATE in the
 * same transaction that creates the user and the owner wallet, so the last use of a code
 * goes to exactly one of any number of concurrent sign-ups, and a failed sign-up (say, a
 * taken email) gives the use back by rolling back.
 */
import {
  AppError,
  EMAIL_TAKEN_MESSAGE,
  INVALID_INVITATION_MESSAGE,
  type AuthSessionView,
  type SignUpInput,
} from '@purser/core';
import { Prisma, userPublicSelect, type TransactionClient } from '@purser/db';
import { hashInvitationCode } from '../invitations/create-invitation';
import { issueSession } from './issue-session';
import { normalizeEmail } from './normalize-email';
import { hashPassword } from './password-hashing';
import type { AuthDeps, ClientInfo } from './session-tokens';

export async function signUpOwner(
  deps: AuthDeps,
  input: SignUpInput,
  options: { client?: ClientInfo } = {},
): Promise<AuthSessionView> {
  const { prisma } = deps.db;
  const email = normalizeEmail(input.email);
  const codeHash = hashInvitationCode(input.data.invitation_code);

  // A cheap read first, so a wrong code costs no password hashing. The UPDATE below decides.
  const invitation = await prisma.invitationCode.findUnique({
    where: { codeHash },
    select: { uses: true, maxUses: true, expiresAt: true },
  });
  if (!invitation || invitation.uses >= invitation.maxUses || (invitation.expiresAt && invitation.expiresAt <= new Date())) {
    throw invalidInvitation();
  }

  const passwordHash = await hashPassword(input.password);
  try {
    return await prisma.$transaction(async (tx: TransactionClient) => {
      const invitationId = await consumeInvitation(tx, codeHash);
      if (!invitationId) throw invalidInvitation();
      const existing = await tx.user.findUnique({ where: { email }, select: { id: true } });
      if (existing) throw emailTaken();
      const user = await tx.user.create({
        data: {
          email,
          passwordHash,
          fullName: input.data.full_name,
          invitationCodeId: invitationId,
          // Zero balances; the ledger creates the wallet's accounts on first use.
          wallet: { create: {} },
        },
        select: userPublicSelect,
      });
      return issueSession(deps, tx, user, { client: options.client });
    });
  } catch (error) {
    // Two sign-ups for one email at once: the unique index lets one through.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw emailTaken();
    throw error;
  }
}

/** Takes one use of the code if it has one left and has not expired; its id, or null. */
async function consumeInvitation(tx: TransactionClient, codeHash: string): Promise<string | null> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    UPDATE "invitation_codes"
       SET "uses" = "uses" + 1
     WHERE "code_hash" = ${codeHash}
       AND "uses" < "max_uses"
       AND ("expires_at" IS NULL OR "expires_at" > now())
    RETURNING "id"::text AS "id"`;
  return rows[0]?.id ?? null;
}

function invalidInvitation(): AppError {
  return new AppError('VALIDATION_FAILED', INVALID_INVITATION_MESSAGE);
}

function emailTaken(): AppError {
  return new AppError('CONFLICT', EMAIL_TAKEN_MESSAGE);
}
