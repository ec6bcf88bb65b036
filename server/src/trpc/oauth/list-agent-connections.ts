import { listAgentConnections as listOwnerAgentConnections } from '../../services/oauth/list-agent-connections';
import { ownerProcedure } from '../init';
import { listAgentConnectionsInput, listAgentConnectionsOutput } from './list-agent-connections.types';

/** An agent's OAuth connections for its page in the console, revoked ones included. */
export const listAgentConnections = ownerProcedure
  .input(listAgentConnectionsInput)
  .output(listAgentConnectionsOutput)
  .query(({ ctx, input }) => listOwnerAgentConnections(ctx, ctx.owner.userId, input.agentId));
