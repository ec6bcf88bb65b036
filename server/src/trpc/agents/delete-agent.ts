import { deleteAgent as deleteOwnerAgent } from '../../services/agents/delete-agent';
import { ownerProcedure } from '../init';
import { deleteAgentInput, deleteAgentOutput } from './delete-agent.types';

export const deleteAgent = ownerProcedure
  .input(deleteAgentInput)
  .output(deleteAgentOutput)
  .mutation(({ ctx, input }) => deleteOwnerAgent(ctx, ctx.owner.userId, input.agent_id));
