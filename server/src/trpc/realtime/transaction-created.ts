import { ownerProcedure } from '../init';
import { ownerEvents } from './owner-events';
import { transactionCreatedInput, type TransactionCreatedMessage } from './transaction-created.types';

/**
 * A new transaction on the signed-in owner's wallet, or on one of their agents when agentId
 * is given: reload the transaction list. Another owner's agent id yields only 'sync'.
 */
export const transactionCreated = ownerProcedure
  .input(transactionCreatedInput)
  .subscription(async function* ({ ctx, input, signal }): AsyncGenerator<TransactionCreatedMessage, void> {
    const agentId = input?.agentId;
    if (agentId === undefined) {
      for await (const message of ownerEvents(ctx, ['transactions'], signal)) {
        yield message.type === 'sync' ? message : { type: 'created', id: message.event.transactionId, walletId: message.event.walletId };
      }
      return;
    }
    for await (const message of ownerEvents(ctx, ['agent_transactions'], signal)) {
      if (message.type === 'sync') yield message;
      else if (message.event.agentId === agentId) yield { type: 'created', id: message.event.transactionId, agentId };
    }
  });
