/** Replaces an agent's API key: every key it had stops working; the new one is answered once. */
import type { RotateAgentApiKeyResult } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { createAgentApiKeyRow } from './agent-api-key-secret';
import { lockOwnedAgent, type AgentServiceDeps } from './owned-agent';
import { recordAgentChange } from './record-agent-change';

export async function rotateAgentApiKey(deps: Pick<AgentServiceDeps, 'db'>, ownerId: string, agentId: string, now = new Date()): Promise<RotateAgentApiKeyResult> {
  return withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    const agent = await lockOwnedAgent(tx, ownerId, agentId);
    const revoked = await tx.agentApiKey.updateMany({ where: { agentId: agent.id, revokedAt: null }, data: { revokedAt: now } });
    const apiKey = await createAgentApiKeyRow(tx, agent.id);
    await recordAgentChange(tx, ownerId, agent.id, 'api_key_rotated', { api_key_id: apiKey.id, revoked_api_keys: revoked.count });
    return { api_key: apiKey };
  });
}
