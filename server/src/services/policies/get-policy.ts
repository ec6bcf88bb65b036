/** One of the owner's policies, any version (superseded and intent-attached ones included). */
import type { PolicyView } from '@purser/core';
import type { AgentServiceDeps } from '../agents/owned-agent';
import { assertPolicyUuids, policyNotFound, policySelect, serializePolicy } from './owned-policy';

export async function getPolicy(deps: Pick<AgentServiceDeps, 'db'>, ownerId: string, policyId: string): Promise<PolicyView> {
  assertPolicyUuids(ownerId, policyId);
  const row = await deps.db.prisma.policy.findFirst({ where: { id: policyId, ownerId }, select: policySelect });
  if (!row) throw policyNotFound();
  return serializePolicy(row);
}
