import { updatePolicy as updateOwnerPolicy } from '../../services/policies/update-policy';
import { ownerProcedure } from '../init';
import { updatePolicyInput, updatePolicyOutput } from './update-policy.types';

export const updatePolicy = ownerProcedure
  .input(updatePolicyInput)
  .output(updatePolicyOutput)
  .mutation(({ ctx, input }) => updateOwnerPolicy(ctx, ctx.owner.userId, input));
