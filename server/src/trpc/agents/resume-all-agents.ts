import { resumeAllAgents as resumeOwnerAgents } from '../../services/agents/resume-all-agents';
import { ownerProcedure } from '../init';
import { resumeAllAgentsOutput } from './resume-all-agents.types';

export const resumeAllAgents = ownerProcedure.output(resumeAllAgentsOutput).mutation(({ ctx }) => resumeOwnerAgents(ctx, ctx.owner.userId));
