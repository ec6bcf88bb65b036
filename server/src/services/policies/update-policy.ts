/**
 * Changes a policy. New rules or a move into or out of shadow mode write a new version (a new
 * id) and mark the old one superseded, so what was enforced when stays on record; switching
 * the policy on or off flips the current version. A change that changes nothing writes nothing.
 */
import { policyRulesDocumentView, policyRulesToDocument, type PolicyView, type UpdatePolicyInput } from '@purser/core';
import type { Prisma, TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import type { AgentServiceDeps } from '../agents/owned-agent';
import {
  assertChangeable,
  isPolicyVersionConflict,
  lockOwnedPolicy,
  nextPolicyVersion,
  policySelect,
  policyVersionConflict,
  recordPolicyChange,
  sameRules,
  serializePolicy,
} from './owned-policy';

export async function updatePolicy(deps: Pick<AgentServiceDeps, 'db'>, ownerId: string, input: UpdatePolicyInput): Promise<PolicyView> {
  const newRules = input.rules ? policyRulesToDocument(input.rules) : undefined;
  let name = '';
  try {
    return await withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
      const current = await lockOwnedPolicy(tx, ownerId, input.policyId);
      name = current.name;
      await assertChangeable(tx, current);
      const rulesChanged = newRules !== undefined && !sameRules(current.rules, newRules);
      const shadowChanged = input.shadow !== undefined && input.shadow !== current.shadow;
      const enabled = input.enabled ?? current.enabled;
      const enabledChanged = enabled !== current.enabled;

      if (rulesChanged || shadowChanged) {
        const rules = newRules ?? policyRulesDocumentView.parse(current.rules);
        const shadow = input.shadow ?? current.shadow;
        const version = await nextPolicyVersion(tx, ownerId, current.name);
        await tx.policy.update({ where: { id: current.id }, data: { supersededAt: new Date() }, select: { id: true } });
        const row = await tx.policy.create({
          data: { ownerId, agentId: current.agentId, name: current.name, version, rules: rules as Prisma.InputJsonObject, shadow, enabled },
          select: policySelect,
        });
        await recordPolicyChange(tx, ownerId, row.id, 'updated', {
          name: row.name,
          agent_id: row.agentId,
          previous_policy_id: current.id,
          old_version: current.version,
          new_version: row.version,
          shadow: row.shadow,
          enabled: row.enabled,
          rules,
        });
        if (enabledChanged) await recordPolicyChange(tx, ownerId, row.id, enabled ? 'enabled' : 'disabled', { name: row.name, version: row.version });
        return serializePolicy(row);
      }

      if (enabledChanged) {
        const row = await tx.policy.update({ where: { id: current.id }, data: { enabled }, select: policySelect });
        await recordPolicyChange(tx, ownerId, row.id, enabled ? 'enabled' : 'disabled', { name: row.name, version: row.version });
        return serializePolicy(row);
      }
      return serializePolicy(current);
    });
  } catch (error) {
    if (isPolicyVersionConflict(error)) throw policyVersionConflict(name);
    throw error;
  }
}
