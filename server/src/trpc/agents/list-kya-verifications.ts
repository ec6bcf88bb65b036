import { listKyaVerifications as listAgentKyaVerifications } from '../../services/agents/list-kya-verifications';
import { ownerProcedure } from '../init';
import { listKyaVerificationsInput, listKyaVerificationsOutput } from './list-kya-verifications.types';

export const listKyaVerifications = ownerProcedure
  .input(listKyaVerificationsInput)
  .output(listKyaVerificationsOutput)
  .query(({ ctx, input }) => listAgentKyaVerifications(ctx, ctx.owner.userId, input.agent_id));
