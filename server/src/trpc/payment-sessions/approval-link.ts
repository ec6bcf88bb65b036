import { readApprovalLink } from '../../services/payment-sessions/read-approval-link';
import { ownerProcedure } from '../init';
import { approvalLinkInput, approvalLinkOutput } from './approval-link.types';

/** What a one-time approval link opens: the waiting request and its agent's name; reading changes nothing. */
export const approvalLink = ownerProcedure
  .input(approvalLinkInput)
  .output(approvalLinkOutput)
  .query(({ ctx, input }) => readApprovalLink(ctx, ctx.owner.userId, input.token));
