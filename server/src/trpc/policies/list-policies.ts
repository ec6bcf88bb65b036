import { listPolicies as listOwnerPolicies } from '../../services/policies/list-policies';
import { ownerProcedure } from '../init';
import { listPoliciesInput, listPoliciesOutput } from './list-policies.types';

export const listPolicies = ownerProcedure
  .input(listPoliciesInput)
  .output(listPoliciesOutput)
  .query(({ ctx, input }) => listOwnerPolicies(ctx, ctx.owner.userId, input));
