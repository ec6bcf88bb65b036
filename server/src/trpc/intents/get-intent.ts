import { getIntent as getPaymentIntent } from '../../services/intents/get-intent';
import { ownerProcedure } from '../init';
import { getIntentInput, getIntentOutput } from './get-intent.types';

export const getIntent = ownerProcedure
  .input(getIntentInput)
  .output(getIntentOutput)
  .query(({ ctx, input }) => getPaymentIntent(ctx.db.prisma, ctx.owner.userId, input.intentId));
