/**
 * Replaces the key that signs an agent's requests. A rotation keeps the old key in the directory
 * and the DID document for SIGNING_KEY_ROTATION_OVERLAP_SECONDS, so requests signed just before
 * still verify; a revocation (a key the owner no longer trusts) takes it out at once. Either way
 * the new key signs from now on, and the change is in the audit log.
 */
import type { AgentIdentityView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { publishedSigningKeys, replaceSigningKey } from '../identity/request-signing-keys';
import { agentIdentityView } from './get-agent-identity';
import { lockOwnedAgent, type AgentServiceDeps } from './owned-agent';
import { recordAgentChange } from './record-agent-change';

export async function rotateAgentSigningKey(
  deps: Pick<AgentServiceDeps, 'db' | 'masterKey' | 'publicUrl'>,
  ownerId: string,
  agentId: string,
  options: { revoke: boolean },
): Promise<AgentIdentityView> {
  return withAuditRetry(deps.db.prisma, async (tx: TransactionClient) => {
    await lockOwnedAgent(tx, ownerId, agentId);
    const { retired, current } = await replaceSigningKey(tx, deps.masterKey, agentId, { revoke: options.revoke });
    await recordAgentChange(tx, ownerId, agentId, options.revoke ? 'signing_key_revoked' : 'signing_key_rotated', {
      keyid: current.keyid,
      previous_keyid: retired?.keyid ?? null,
      previous_retires_at: retired?.retiresAt?.toISOString() ?? null,
    });
    const agent = await tx.agent.findUniqueOrThrow({ where: { id: agentId }, select: { id: true, did: true, requestSigning: true } });
    return agentIdentityView(deps.publicUrl, agent, await publishedSigningKeys(tx, agentId));
  });
}
