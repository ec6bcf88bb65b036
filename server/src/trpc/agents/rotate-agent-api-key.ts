import { rotateAgentApiKey as rotateOwnerAgentApiKey } from '../../services/agents/rotate-agent-api-key';
import { ownerProcedure } from '../init';
import { rotateAgentApiKeyInput, rotateAgentApiKeyOutput } from './rotate-agent-api-key.types';

export const rotateAgentApiKey = ownerProcedure
  .input(rotateAgentApiKeyInput)
  .output(rotateAgentApiKeyOutput)
  .mutation(({ ctx, input }) => rotateOwnerAgentApiKey(ctx, ctx.owner.userId, input.agent_id));
