import { openPaymentSession as openOwnerPaymentSession } from '../../services/payment-sessions/open-payment-session';
import { ownerProcedure } from '../init';
import { openPaymentSessionInput, openPaymentSessionOutput } from './open-payment-session.types';

/** The owner opens a budget for one of their agents: open at once, announced as budget.granted. */
export const openPaymentSession = ownerProcedure
  .input(openPaymentSessionInput)
  .output(openPaymentSessionOutput)
  .mutation(({ ctx, input }) => openOwnerPaymentSession(ctx, ctx.owner.userId, input));
