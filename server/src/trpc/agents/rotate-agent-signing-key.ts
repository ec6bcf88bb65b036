import { rotateAgentSigningKey as rotateOwnerAgentSigningKey } from '../../services/agents/rotate-agent-signing-key';
import { ownerProcedure } from '../init';
import { rotateAgentSigningKeyInput, rotateAgentSigningKeyOutput } from './rotate-agent-signing-key.types';

export const rotateAgentSigningKey = ownerProcedure
  .input(rotateAgentSigningKeyInput)
  .output(rotateAgentSigningKeyOutput)
  .mutation(({ ctx, input }) => rotateOwnerAgentSigningKey(ctx, ctx.owner.userId, input.agent_id, { revoke: false }));
