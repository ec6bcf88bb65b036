import { getAuthorizationRequest as getOwnerAuthorizationRequest } from '../../services/oauth/get-authorization-request';
import { ownerProcedure } from '../init';
import { getAuthorizationRequestInput, getAuthorizationRequestOutput } from './get-authorization-request.types';

/** The consent page's request; opening it makes it the signed-in owner's. */
export const getAuthorizationRequest = ownerProcedure
  .input(getAuthorizationRequestInput)
  .output(getAuthorizationRequestOutput)
  .query(({ ctx, input }) => getOwnerAuthorizationRequest(ctx, ctx.owner.userId, input.requestId));
