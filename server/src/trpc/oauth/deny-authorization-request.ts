import { denyAuthorizationRequest as denyOwnerAuthorizationRequest } from '../../services/oauth/deny-authorization-request';
import { ownerProcedure } from '../init';
import { denyAuthorizationRequestInput, denyAuthorizationRequestOutput } from './deny-authorization-request.types';

/** The owner denies on the consent page; the browser goes back to the client with error=access_denied. */
export const denyAuthorizationRequest = ownerProcedure
  .input(denyAuthorizationRequestInput)
  .output(denyAuthorizationRequestOutput)
  .mutation(({ ctx, input }) => denyOwnerAuthorizationRequest(ctx, ctx.owner.userId, input.requestId));
