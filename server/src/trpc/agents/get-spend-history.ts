import { getSpendHistory as getAgentSpendHistory } from '../../services/agents/get-spend-history';
import { ownerProcedure } from '../init';
import { getSpendHistoryInput, getSpendHistoryOutput } from './get-spend-history.types';

export const getSpendHistory = ownerProcedure
  .input(getSpendHistoryInput)
  .output(getSpendHistoryOutput)
  .query(({ ctx, input }) => getAgentSpendHistory(ctx.db.prisma, ctx.owner.userId, input));
