import { getPolicy as getOwnerPolicy } from '../../services/policies/get-policy';
import { ownerProcedure } from '../init';
import { getPolicyInput, getPolicyOutput } from './get-policy.types';

export const getPolicy = ownerProcedure
  .input(getPolicyInput)
  .output(getPolicyOutput)
  .query(({ ctx, input }) => getOwnerPolicy(ctx, ctx.owner.userId, input.policyId));
