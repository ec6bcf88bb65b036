import { revokePaymentSession as revokeOwnerPaymentSession } from '../../services/payment-sessions/revoke-payment-session';
import { ownerProcedure } from '../init';
import { revokePaymentSessionInput, revokePaymentSessionOutput } from './revoke-payment-session.types';

/** The owner ends a waiting request or an open session at once. */
export const revokePaymentSession = ownerProcedure
  .input(revokePaymentSessionInput)
  .output(revokePaymentSessionOutput)
  .mutation(({ ctx, input }) => revokeOwnerPaymentSession(ctx, ctx.owner.userId, input.sessionId));
