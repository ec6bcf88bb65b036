import { authUserView } from '@purser/core';
import { getOwnerUser } from '../../services/auth/get-owner-user';
import { ownerProcedure } from '../init';

export const getMe = ownerProcedure.output(authUserView).query(({ ctx }) => getOwnerUser(ctx.db.prisma, ctx.owner.userId));
