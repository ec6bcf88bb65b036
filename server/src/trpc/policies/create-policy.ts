import { createPolicy as createOwnerPolicy } from '../../services/policies/create-policy';
import { ownerProcedure } from '../init';
import { createPolicyInput, createPolicyOutput } from './create-policy.types';

export const createPolicy = ownerProcedure
  .input(createPolicyInput)
  .output(createPolicyOutput)
  .mutation(({ ctx, input }) => createOwnerPolicy(ctx, ctx.owner.userId, input));
