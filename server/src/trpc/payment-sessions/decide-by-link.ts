import { decidePaymentSessionByLink } from '../../services/payment-sessions/decide-by-approval-link';
import { ownerProcedure } from '../init';
import { decideByLinkInput, decideByLinkOutput } from './decide-by-link.types';

/** The owner grants or rejects a budget request through its one-time approval link, which it uses up. */
export const decideByLink = ownerProcedure
  .input(decideByLinkInput)
  .output(decideByLinkOutput)
  .mutation(({ ctx, input }) => decidePaymentSessionByLink(ctx, ctx.owner.userId, input));
