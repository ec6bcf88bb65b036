import { listAgents as listOwnerAgents } from '../../services/agents/list-agents';
import { ownerProcedure } from '../init';
import { listAgentsOutput } from './list-agents.types';

export const listAgents = ownerProcedure.output(listAgentsOutput).query(({ ctx }) => listOwnerAgents(ctx, ctx.owner.userId));
