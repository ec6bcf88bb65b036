import { getAgent as getOwnerAgent } from '../../services/agents/get-agent';
import { ownerProcedure } from '../init';
import { getAgentInput, getAgentOutput } from './get-agent.types';

export const getAgent = ownerProcedure
  .input(getAgentInput)
  .output(getAgentOutput)
  .query(({ ctx, input }) => getOwnerAgent(ctx, ctx.owner.userId, input.agent_id));
