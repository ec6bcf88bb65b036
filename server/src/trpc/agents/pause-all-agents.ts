import { pauseAllAgents as pauseOwnerAgents } from '../../services/agents/pause-all-agents';
import { ownerProcedure } from '../init';
import { pauseAllAgentsOutput } from './pause-all-agents.types';

export const pauseAllAgents = ownerProcedure.output(pauseAllAgentsOutput).mutation(({ ctx }) => pauseOwnerAgents(ctx, ctx.owner.userId));
