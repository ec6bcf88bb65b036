import { deletePolicy as deleteOwnerPolicy } from '../../services/policies/delete-policy';
import { ownerProcedure } from '../init';
import { deletePolicyInput, deletePolicyOutput } from './delete-policy.types';

export const deletePolicy = ownerProcedure
  .input(deletePolicyInput)
  .output(deletePolicyOutput)
  .mutation(({ ctx, input }) => deleteOwnerPolicy(ctx, ctx.owner.userId, input.policyId));
