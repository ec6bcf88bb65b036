/** Owners signed up the way real ones are: an invitation code and POST /auth/v1/signup. */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { PrismaClient } from '@purser/db';
import { createInvitation } from '../../src/services/invitations/create-invitation';

export interface SignedUpOwner {
  userId: string;
  email: string;
  accessToken: string;
  headers: { authorization: string };
}

export async function signUpTestOwner(app: FastifyInstance, prisma: PrismaClient, fullName = 'Test Owner'): Promise<SignedUpOwner> {
  const invitation = await createInvitation(prisma, { maxUses: 1, expiresAt: new Date(Date.now() + 60_000) });
  const email = `${randomUUID()}@example.test`;
  const response = await app.inject({
    method: 'POST',
    url: '/auth/v1/signup',
    payload: { email, password: 'correct horse battery', data: { full_name: fullName, invitation_code: invitation.code } },
  });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  const session = response.json() as { access_token: string; user: { id: string } };
  return { userId: session.user.id, email, accessToken: session.access_token, headers: { authorization: `Bearer ${session.access_token}` } };
}
