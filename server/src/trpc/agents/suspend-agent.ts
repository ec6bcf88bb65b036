import { suspendAgent as suspendOwnerAgent } from '../../services/agents/suspend-agent';
import { ownerProcedure } from '../init';
import { suspendAgentInput, suspendAgentOutput } from './suspend-agent.types';

export const suspendAgent = ownerProcedure
  .input(suspendAgentInput)
  .output(suspendAgentOutput)
  .mutation(({ ctx, input }) => suspendOwnerAgent(ctx, ctx.owner.userId, input.agent_id));
