import { getPaymentSession as getOwnerPaymentSession } from '../../services/payment-sessions/get-payment-session';
import { ownerProcedure } from '../init';
import { getPaymentSessionInput, getPaymentSessionOutput } from './get-payment-session.types';

/** One of the owner's payment sessions with what it spent and what remains. */
export const getPaymentSession = ownerProcedure
  .input(getPaymentSessionInput)
  .output(getPaymentSessionOutput)
  .query(({ ctx, input }) => getOwnerPaymentSession(ctx, ctx.owner.userId, input.sessionId));
