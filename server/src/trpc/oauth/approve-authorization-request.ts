import { approveAuthorizationRequest as approveOwnerAuthorizationRequest } from '../../services/oauth/approve-authorization-request';
import { ownerProcedure } from '../init';
import { approveAuthorizationRequestInput, approveAuthorizationRequestOutput } from './approve-authorization-request.types';

/** The owner approves on the consent page; the answer is where the browser goes next (the client's redirect URI with code, state and iss). */
export const approveAuthorizationRequest = ownerProcedure
  .input(approveAuthorizationRequestInput)
  .output(approveAuthorizationRequestOutput)
  .mutation(async ({ ctx, input }) => {
    const { requestId, ...approval } = input;
    const { redirectUrl } = await approveOwnerAuthorizationRequest(ctx, ctx.owner.userId, requestId, approval);
    return { redirectUrl };
  });
