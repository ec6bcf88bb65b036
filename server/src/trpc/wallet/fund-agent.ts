import { fundAgentAndMirror } from '../../services/wallets/fund-agent';
import { ownerProcedure } from '../init';
import { fundAgentProcedureInput, fundAgentProcedureOutput } from './fund-agent.types';

export const fundAgent = ownerProcedure
  .input(fundAgentProcedureInput)
  .output(fundAgentProcedureOutput)
  .mutation(async ({ ctx, input }) => {
    const result = await fundAgentAndMirror(
      ctx,
      ctx.owner.userId,
      { agentId: input.agent_id, amount: input.amount, currency: input.currency },
      { idempotencyKey: input.idempotency_key },
    );
    return result.response;
  });
