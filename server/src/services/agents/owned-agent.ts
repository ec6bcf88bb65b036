/**
 * The ownership check every agent service starts with: an agent is found only by its owner,
 * and a deleted agent is found by nobody. Any other answer is the same 404, so an id of
 * somebody else's agent reveals nothing.
 */
import { randomUUID } from 'node:crypto';
import { AGENT_NOT_FOUND_MESSAGE, AppError } from '@purser/core';
import type { Prisma, TransactionClient } from '@purser/db';
import { issueAgentCredential } from '../identity/issue-agent-credential';
import type { AppDeps } from '../../deps';

export type AgentServiceDeps = Pick<AppDeps, 'db' | 'masterKey' | 'publicUrl'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function agentNotFound(): AppError {
  return new AppError('NOT_FOUND', AGENT_NOT_FOUND_MESSAGE);
}

/** A fresh agent id (chosen before the insert: the DID and key bindings derive from it). */
export function newAgentId(): string {
  return randomUUID();
}

/**
 * Locks the owner's agent row for the rest of the transaction (so concurrent changes of one
 * agent serialize) and returns its status; throws 404 when the owner has no such live agent.
 */
export async function lockOwnedAgent(tx: TransactionClient, ownerId: string, agentId: string): Promise<{ id: string; status: 'active' | 'suspended' }> {
  if (!UUID.test(agentId) || !UUID.test(ownerId)) throw agentNotFound();
  const rows = await tx.$queryRaw<{ id: string; status: string }[]>`
    SELECT id::text AS id, status::text AS status FROM agents
     WHERE id = ${agentId}::uuid AND owner_id = ${ownerId}::uuid AND status <> 'deleted'
       FOR UPDATE`;
  const row = rows[0];
  if (!row) throw agentNotFound();
  return { id: row.id, status: row.status as 'active' | 'suspended' };
}

/** The where clause of an owner's live agent. */
export function ownedAgentWhere(ownerId: string, agentId: string) {
  return { id: agentId, ownerId, status: { not: 'deleted' as const } };
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

export function assertUuids(...ids: string[]): void {
  if (!ids.every(isUuid)) throw agentNotFound();
}

/**
 * Issues the agent a new credential reflecting its current rules and status and stores its
 * JSON view. With `newStatusIndex` the agent moves to a fresh slot of the status list, so the
 * credential it replaces (whose slot no active agent holds any more) reads as invalid.
 */
export async function reissueAgentCredential(
  tx: TransactionClient,
  deps: Pick<AppDeps, 'masterKey' | 'publicUrl'>,
  agentId: string,
  options: { newStatusIndex: boolean },
): Promise<void> {
  if (options.newStatusIndex) {
    await tx.$executeRaw`
      UPDATE agents SET credential_status_index = nextval(pg_get_serial_sequence('agents', 'credential_status_index'))
       WHERE id = ${agentId}::uuid`;
  }
  const agent = await tx.agent.findUniqueOrThrow({
    where: { id: agentId },
    select: {
      did: true,
      ownerId: true,
      kyaTier: true,
      status: true,
      credentialStatusIndex: true,
      spendingRules: { select: { maxTransactionAmount: true, maxDailyLimit: true } },
      keys: { where: { purpose: 'identity', revokedAt: null }, orderBy: { createdAt: 'desc' }, take: 1, select: { publicKey: true } },
    },
  });
  const identity = agent.keys[0];
  if (!agent.spendingRules || !identity) throw new AppError('INTERNAL', 'Agent lacks spending rules or an identity key');
  const credential = await issueAgentCredential(deps, {
    did: agent.did,
    ownerId: agent.ownerId,
    kyaTier: agent.kyaTier,
    status: agent.status,
    credentialStatusIndex: agent.credentialStatusIndex,
    identityPublicKey: identity.publicKey,
    maxTransactionAmount: agent.spendingRules.maxTransactionAmount,
    maxDailyLimit: agent.spendingRules.maxDailyLimit,
  });
  await tx.agent.update({ where: { id: agentId }, data: { verifiableCredential: credential as unknown as Prisma.InputJsonObject }, select: { id: true } });
}
