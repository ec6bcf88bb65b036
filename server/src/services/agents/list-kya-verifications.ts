/** An agent's KYA verifications, verified and rejected, newest first; its owner's only. */
import type { KyaVerificationView } from '@purser/core';
import { agentNotFound, assertUuids, ownedAgentWhere, type AgentServiceDeps } from './owned-agent';
import { kyaVerificationSelect, serializeKyaVerification } from './kya-verification-view';

export async function listKyaVerifications(deps: Pick<AgentServiceDeps, 'db'>, ownerId: string, agentId: string): Promise<KyaVerificationView[]> {
  assertUuids(ownerId, agentId);
  const prisma = deps.db.prisma;
  const agent = await prisma.agent.findFirst({ where: ownedAgentWhere(ownerId, agentId), select: { id: true } });
  if (!agent) throw agentNotFound();
  const rows = await prisma.kyaVerification.findMany({
    where: { agentId: agent.id },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: kyaVerificationSelect,
  });
  return rows.map(serializeKyaVerification);
}
