import { listAgentTransactions as listOwnerAgentTransactions } from '../../services/agents/list-agent-transactions';
import { ownerProcedure } from '../init';
import { listAgentTransactionsInput, listAgentTransactionsOutput } from './list-agent-transactions.types';

export const listAgentTransactions = ownerProcedure
  .input(listAgentTransactionsInput)
  .output(listAgentTransactionsOutput)
  .query(({ ctx, input }) => listOwnerAgentTransactions(ctx, ctx.owner.userId, input.agent_id, { limit: input.limit }));
