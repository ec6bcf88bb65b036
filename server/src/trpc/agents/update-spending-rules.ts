import { updateSpendingRules as updateAgentSpendingRules } from '../../services/agents/update-spending-rules';
import { ownerProcedure } from '../init';
import { updateSpendingRulesInput, updateSpendingRulesOutput } from './update-spending-rules.types';

export const updateSpendingRules = ownerProcedure
  .input(updateSpendingRulesInput)
  .output(updateSpendingRulesOutput)
  .mutation(({ ctx, input }) => updateAgentSpendingRules(ctx, ctx.owner.userId, input));
