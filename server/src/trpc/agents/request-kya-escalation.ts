import { requestKyaEscalation as requestAgentKyaEscalation } from '../../services/agents/request-kya-escalation';
import { ownerProcedure } from '../init';
import { requestKyaEscalationInput, requestKyaEscalationOutput } from './request-kya-escalation.types';

export const requestKyaEscalation = ownerProcedure
  .input(requestKyaEscalationInput)
  .output(requestKyaEscalationOutput)
  .mutation(({ ctx, input }) => requestAgentKyaEscalation(ctx, ctx.owner.userId, input));
