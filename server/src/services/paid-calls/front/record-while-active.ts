/**
 * What the agent signed is recorded only while the agent is active: the operation's insert takes
 * the agent's row lock (intents/lock-paying-agent.ts) and, if the agent was suspended while the
 * payment was being signed, records a refusal instead. The signature is then dropped here, never
 * stored and never sent: the suspension's sweep, which ran after its commit and before this
 * insert, had nothing of it to cancel, and nothing of it exists to cancel.
 */
import type { TransactionClient } from '@purser/db';
import { lockPayingAgent } from '../../intents/lock-paying-agent';
import type { NewOperation } from '../../rail-operations/operation-record';
import { refusedOperation } from '../schemes/authorization';

export function recordWhileActive(agentId: string, intentId: string, where: { network: string; payer: string }) {
  return async (tx: TransactionClient, operation: NewOperation): Promise<NewOperation> => {
    const status = await lockPayingAgent(tx, agentId);
    if (status === 'active' || operation.status === 'declined') return operation;
    return refusedOperation(intentId, 'agent_not_active', `The agent is ${status}; what was signed for this payment was dropped, never sent`, where);
  };
}
