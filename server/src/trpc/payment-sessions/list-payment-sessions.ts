import { listPaymentSessions as listOwnerPaymentSessions } from '../../services/payment-sessions/list-payment-sessions';
import { ownerProcedure } from '../init';
import { listPaymentSessionsInput, listPaymentSessionsOutput } from './list-payment-sessions.types';

/** The owner's payment sessions, newest first, optionally one agent's or in one status. */
export const listPaymentSessions = ownerProcedure
  .input(listPaymentSessionsInput)
  .output(listPaymentSessionsOutput)
  .query(({ ctx, input }) => listOwnerPaymentSessions(ctx, ctx.owner.userId, input));
