import { getIntentProgress as getPaymentProgress } from '../../services/intents/get-intent-progress';
import { ownerProcedure } from '../init';
import { getIntentProgressInput, getIntentProgressOutput } from './get-intent-progress.types';

export const getIntentProgress = ownerProcedure
  .input(getIntentProgressInput)
  .output(getIntentProgressOutput)
  .query(({ ctx, input }) => getPaymentProgress(ctx, ctx.owner.userId, input.intentId));
