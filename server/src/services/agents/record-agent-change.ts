/**
 * The audit event of an owner's change to one of their agents, appended inside the change's
 * transaction. `data` holds what changed, never key material or API keys.
 */
import type { AgentView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import type { AuditData } from '../audit/audit-hash';
import { appendAuditEvent } from '../audit/append-audit-event';

export type AgentAuditAction =
  | 'created'
  | 'spending_rules_updated'
  | 'suspended'
  | 'reactivated'
  | 'deleted'
  | 'api_key_rotated'
  // The key that signs the agent's HTTP requests, and which requests are signed (docs/identity.md).
  | 'signing_key_rotated'
  | 'signing_key_revoked'
  | 'request_signing_updated'
  // The owner's kill switch ("Pause all agents" and "Resume"): one entry per agent it changed.
  | 'kill_switch_paused'
  | 'kill_switch_resumed';

export async function recordAgentChange(tx: TransactionClient, ownerId: string, agentId: string, action: AgentAuditAction, data: AuditData): Promise<void> {
  await appendAuditEvent(tx, { actor: `owner:${ownerId}`, action: `agent.${action}`, subject: `agent:${agentId}`, ownerId, data });
}

/** The agent's limits as exact decimal strings. */
export function spendingRulesAuditData(agent: AgentView): AuditData {
  const rules = agent.spending_rules;
  return {
    max_transaction_amount: rules?.max_transaction_amount_exact ?? null,
    max_daily_limit: rules?.max_daily_limit_exact ?? null,
    approval_threshold: rules?.approval_threshold_exact ?? null,
  };
}
