/**
 * The agent's row, locked for a payment: every transaction that authorises, holds, signs or
 * records what an agent signed takes it first (after the intent's own lock, before the wallet's),
 * and the suspension and the kill switch take it FOR UPDATE. So the two serialize: a payment that
 * committed before the suspension is in the suspension's sweep (it runs after its commit), and
 * one that comes after reads the agent suspended and signs nothing. In the owner's audit chain,
 * nothing of an agent is authorised or signed after its suspension entry.
 *
 * FOR NO KEY UPDATE: it queues behind a suspension and other payments of the agent (which queue
 * on its wallet anyway), but not behind rows that merely reference the agent (an intent or a
 * voucher being inserted takes a key-share lock on it).
 */
import type { TransactionClient } from '@purser/db';

export type PayingAgentStatus = 'active' | 'suspended' | 'deleted' | 'gone';

export async function lockPayingAgent(tx: TransactionClient, agentId: string): Promise<PayingAgentStatus> {
  const [row] = await tx.$queryRaw<{ status: string }[]>`SELECT status::text AS status FROM agents WHERE id = ${agentId}::uuid FOR NO KEY UPDATE`;
  return (row?.status ?? 'gone') as PayingAgentStatus;
}
