/**
 * Creates a policy for all of an owner's agents or for one of them. A name is one policy: a
 * name that has a current version already is refused; the name of a deleted policy starts
 * again at the version after its last.
 */
import { AppError, policyRulesToDocument, type CreatePolicyInput, type PolicyView } from '@purser/core';
import type { Prisma, TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { lockOwnedAgent, type AgentServiceDeps } from '../agents/owned-agent';
import {
  isPolicyVersionConflict,
  nextPolicyVersion,
  policySelect,
  policyVersionConflict,
  recordPolicyChange,
  serializePolicy,
} from './owned-policy';

export async function createPolicy(deps: Pick<AgentServiceDeps, 'db'>, ownerId: string, input: CreatePolicyInput): Promise<PolicyView> {
  const document = policyRulesToDocument(input.rules);
  try {
    return await withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
      if (input.agentId) await lockOwnedAgent(tx, ownerId, input.agentId);
      const existing = await tx.policy.findFirst({
        where: { ownerId, name: input.name, paymentIntentId: null, supersededAt: null },
        select: { id: true },
      });
      if (existing) throw new AppError('CONFLICT', `A policy named "${input.name}" already exists; change it instead (id ${existing.id})`);
      const version = await nextPolicyVersion(tx, ownerId, input.name);
      const row = await tx.policy.create({
        data: {
          ownerId,
          agentId: input.agentId ?? null,
          name: input.name,
          version,
          rules: document as Prisma.InputJsonObject,
          shadow: input.shadow,
          enabled: input.enabled,
        },
        select: policySelect,
      });
      await recordPolicyChange(tx, ownerId, row.id, 'created', {
        name: row.name,
        version: row.version,
        agent_id: row.agentId,
        shadow: row.shadow,
        enabled: row.enabled,
        rules: document,
      });
      return serializePolicy(row);
    });
  } catch (error) {
    if (isPolicyVersionConflict(error)) throw policyVersionConflict(input.name);
    throw error;
  }
}
