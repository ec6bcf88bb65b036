import { createIntent as createPaymentIntent } from '../../services/intents/create-intent';
import { ownerProcedure } from '../init';
import { createIntentInput, createIntentOutput } from './create-intent.types';

export const createIntent = ownerProcedure
  .input(createIntentInput)
  .output(createIntentOutput)
  .mutation(async ({ ctx, input }) => (await createPaymentIntent(ctx, { ownerId: ctx.owner.userId, createdBy: 'owner' }, input)).response);
