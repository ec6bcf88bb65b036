import { listWouldHaveBlocked } from '../../services/policies/list-would-have-blocked';
import { ownerProcedure } from '../init';
import { wouldHaveBlockedInput, wouldHaveBlockedOutput } from './would-have-blocked.types';

export const wouldHaveBlocked = ownerProcedure
  .input(wouldHaveBlockedInput)
  .output(wouldHaveBlockedOutput)
  .query(({ ctx, input }) => listWouldHaveBlocked(ctx.db.prisma, ctx.owner.userId, input));
