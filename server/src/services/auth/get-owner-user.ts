/** The signed-in owner as GET /auth/v1/user and tRPC auth.me return it. */
import { AppError, type AuthUserView } from '@purser/core';
import { userPublicSelect, type Prisma, type TransactionClient } from '@purser/db';

export type PublicUser = Prisma.UserGetPayload<{ select: typeof userPublicSelect }>;

export function toAuthUserView(user: PublicUser): AuthUserView {
  return {
    id: user.id,
    email: user.email,
    user_metadata: { full_name: user.fullName },
    created_at: user.createdAt.toISOString(),
  };
}

export async function getOwnerUser(prisma: TransactionClient, userId: string): Promise<AuthUserView> {
  const user = await prisma.user.findUnique({ where: { id: userId }, select: userPublicSelect });
  // The session outlived its account: treat it as signed out.
  if (!user) throw new AppError('UNAUTHORIZED', 'Authentication required');
  return toAuthUserView(user);
}
