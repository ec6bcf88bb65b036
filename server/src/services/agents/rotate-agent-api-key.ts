/** Replaces an agent's API key: every key it had stops working; the new one is answered once. */
import type { RotateAgentApiKeyResult } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { createAgentApiKeyRow } from './agent-api-key-secret';
import { lockOwnedAgent, type AgentServiceDeps } from './owned-agent';

export async function rotateAgentApiKey(deps: Pick<AgentServiceDeps, 'db'>, ownerId: string, agentId: string, now = new Date()): Promise<RotateAgentApiKeyResult> {
  return deps.db.prisma.$transaction(async (tx: TransactionClient) => {
    const agent = await lockOwnedAgent(tx, ownerId, agentId);
    await tx.agentApiKey.updateMany({ where: { agentId: agent.id, revokedAt: null }, data: { revokedAt: now } });
    return { api_key: await createAgentApiKeyRow(tx, agent.id) };
  });
}
