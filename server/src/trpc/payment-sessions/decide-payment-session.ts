import { decidePaymentSession as decideOwnerPaymentSession } from '../../services/payment-sessions/decide-payment-session';
import { ownerProcedure } from '../init';
import { decidePaymentSessionInput, decidePaymentSessionOutput } from './decide-payment-session.types';

/** The owner grants an agent's budget request (possibly for less, or until sooner) or rejects it. */
export const decidePaymentSession = ownerProcedure
  .input(decidePaymentSessionInput)
  .output(decidePaymentSessionOutput)
  .mutation(({ ctx, input }) => decideOwnerPaymentSession(ctx, ctx.owner.userId, input));
