import { rotateAgentSigningKey as rotateOwnerAgentSigningKey } from '../../services/agents/rotate-agent-signing-key';
import { ownerProcedure } from '../init';
import { revokeAgentSigningKeyInput, revokeAgentSigningKeyOutput } from './revoke-agent-signing-key.types';

export const revokeAgentSigningKey = ownerProcedure
  .input(revokeAgentSigningKeyInput)
  .output(revokeAgentSigningKeyOutput)
  .mutation(({ ctx, input }) => rotateOwnerAgentSigningKey(ctx, ctx.owner.userId, input.agent_id, { revoke: true }));
