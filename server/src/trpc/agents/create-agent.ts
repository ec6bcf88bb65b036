import { createAgent as createOwnerAgent } from '../../services/agents/create-agent';
import { ownerProcedure } from '../init';
import { createAgentInput, createAgentOutput } from './create-agent.types';

export const createAgent = ownerProcedure
  .input(createAgentInput)
  .output(createAgentOutput)
  .mutation(({ ctx, input }) => createOwnerAgent(ctx, ctx.owner.userId, input));
