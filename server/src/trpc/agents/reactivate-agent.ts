import { reactivateAgent as reactivateOwnerAgent } from '../../services/agents/reactivate-agent';
import { ownerProcedure } from '../init';
import { reactivateAgentInput, reactivateAgentOutput } from './reactivate-agent.types';

export const reactivateAgent = ownerProcedure
  .input(reactivateAgentInput)
  .output(reactivateAgentOutput)
  .mutation(({ ctx, input }) => reactivateOwnerAgent(ctx, ctx.owner.userId, input.agent_id));
