import { cancelIntent as cancelPaymentIntent } from '../../services/intents/cancel-intent';
import { ownerProcedure } from '../init';
import { decideIntentInput, decideIntentOutput } from './decide-intent.types';

export const cancelIntent = ownerProcedure
  .input(decideIntentInput)
  .output(decideIntentOutput)
  .mutation(({ ctx, input }) => cancelPaymentIntent(ctx, ctx.owner.userId, input.intentId, input.reason));
