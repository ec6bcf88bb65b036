/**
 * The owner's policies: owner-wide first, then per-agent, each oldest first. Policies attached
 * to a payment intent belong to that payment and are not listed (get reads them by id), nor
 * are those of deleted agents. With `agentId`, the policies that apply to that agent: the
 * owner-wide ones and its own. Superseded versions and deleted policies only on request.
 */
import type { ListPoliciesInput, PolicyView } from '@purser/core';
import type { Prisma } from '@purser/db';
import { agentNotFound, assertUuids, ownedAgentWhere, type AgentServiceDeps } from '../agents/owned-agent';
import { assertPolicyUuids, comparePolicyScope, policySelect, serializePolicy } from './owned-policy';

export async function listPolicies(deps: Pick<AgentServiceDeps, 'db'>, ownerId: string, input: ListPoliciesInput): Promise<PolicyView[]> {
  assertPolicyUuids(ownerId);
  const prisma = deps.db.prisma;
  let scope: Prisma.PolicyWhereInput;
  if (input.agentId) {
    assertUuids(input.agentId);
    const agent = await prisma.agent.findFirst({ where: ownedAgentWhere(ownerId, input.agentId), select: { id: true } });
    if (!agent) throw agentNotFound();
    scope = { OR: [{ agentId: null }, { agentId: agent.id }] };
  } else {
    scope = { OR: [{ agentId: null }, { agent: { status: { not: 'deleted' } } }] };
  }
  const rows = await prisma.policy.findMany({
    where: { ownerId, paymentIntentId: null, ...(input.includeSuperseded ? {} : { supersededAt: null }), ...scope },
    select: policySelect,
  });
  return rows.sort(comparePolicyScope).map(serializePolicy);
}
