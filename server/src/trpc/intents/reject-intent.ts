import { decideIntent } from '../../services/intents/decide-intent';
import { ownerProcedure } from '../init';
import { decideIntentInput, decideIntentOutput } from './decide-intent.types';

export const rejectIntent = ownerProcedure
  .input(decideIntentInput)
  .output(decideIntentOutput)
  .mutation(({ ctx, input }) => decideIntent(ctx, ctx.owner.userId, 'rejected', input));
