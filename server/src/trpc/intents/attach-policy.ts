import { attachIntentPolicy } from '../../services/intents/attach-intent-policy';
import { ownerProcedure } from '../init';
import { attachPolicyInput, attachPolicyOutput } from './attach-policy.types';

export const attachPolicy = ownerProcedure
  .input(attachPolicyInput)
  .output(attachPolicyOutput)
  .mutation(({ ctx, input }) => attachIntentPolicy(ctx, ctx.owner.userId, input));
