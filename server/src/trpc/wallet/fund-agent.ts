import { fundAgent as fundOwnerAgent } from '../../services/wallets/fund-agent';
import { mirrorFundingOnChain } from '../../services/wallets/mirror-funding-on-chain';
import { ownerProcedure } from '../init';
import { fundAgentProcedureInput, fundAgentProcedureOutput } from './fund-agent.types';

export const fundAgent = ownerProcedure
  .input(fundAgentProcedureInput)
  .output(fundAgentProcedureOutput)
  .mutation(async ({ ctx, input }) => {
    const result = await fundOwnerAgent(
      ctx.db.prisma,
      ctx.owner.userId,
      { agentId: input.agent_id, amount: input.amount, currency: input.currency },
      { idempotencyKey: input.idempotency_key },
    );
    await mirrorFundingOnChain(ctx, { agentId: input.agent_id, amount: input.amount, currency: input.currency, replayed: result.replayed });
    return result.response;
  });
