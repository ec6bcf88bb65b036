/** The owner's rule of which of an agent's requests Purser signs: always, only paid ones, or never. */
import type { AgentIdentityView, UpdateRequestSigningInput } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { publishedSigningKeys } from '../identity/request-signing-keys';
import { agentIdentityView } from './get-agent-identity';
import { lockOwnedAgent, type AgentServiceDeps } from './owned-agent';
import { recordAgentChange } from './record-agent-change';

export async function updateRequestSigning(
  deps: Pick<AgentServiceDeps, 'db' | 'publicUrl'>,
  ownerId: string,
  agentId: string,
  input: UpdateRequestSigningInput,
): Promise<AgentIdentityView> {
  return withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    await lockOwnedAgent(tx, ownerId, agentId);
    const before = await tx.agent.findUniqueOrThrow({ where: { id: agentId }, select: { requestSigning: true } });
    const agent = await tx.agent.update({ where: { id: agentId }, data: { requestSigning: input.request_signing }, select: { id: true, did: true, requestSigning: true } });
    if (before.requestSigning !== input.request_signing) {
      await recordAgentChange(tx, ownerId, agentId, 'request_signing_updated', { from: before.requestSigning, to: input.request_signing });
    }
    return agentIdentityView(deps.publicUrl, agent, await publishedSigningKeys(tx, agentId));
  });
}
