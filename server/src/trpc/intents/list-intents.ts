import { listIntents as listPaymentIntents } from '../../services/intents/list-intents';
import { ownerProcedure } from '../init';
import { listIntentsInput, listIntentsOutput } from './list-intents.types';

export const listIntents = ownerProcedure
  .input(listIntentsInput)
  .output(listIntentsOutput)
  .query(({ ctx, input }) => listPaymentIntents(ctx.db.prisma, ctx.owner.userId, input));
