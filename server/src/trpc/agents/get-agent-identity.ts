import { getAgentIdentity as getOwnerAgentIdentity } from '../../services/agents/get-agent-identity';
import { ownerProcedure } from '../init';
import { getAgentIdentityInput, getAgentIdentityOutput } from './get-agent-identity.types';

export const getAgentIdentity = ownerProcedure
  .input(getAgentIdentityInput)
  .output(getAgentIdentityOutput)
  .query(({ ctx, input }) => getOwnerAgentIdentity(ctx, ctx.owner.userId, input.agent_id));
