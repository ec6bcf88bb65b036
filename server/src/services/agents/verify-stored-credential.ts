/**
 * The console's Verify action: checks the credential the platform holds for one of the owner's
 * agents exactly as any verifier would (identity/verify-agent-credential.ts: signature, expiry,
 * status list), so a suspended agent's credential answers revoked. Another owner's agent, or a
 * deleted one, is the usual 404.
 */
import { agentCredentialView, type VerifyCredentialResult } from '@purser/core';
import { verifyAgentCredential } from '../identity/verify-agent-credential';
import { agentNotFound, assertUuids, ownedAgentWhere, type AgentServiceDeps } from './owned-agent';

export async function verifyStoredCredential(deps: AgentServiceDeps, ownerId: string, agentId: string): Promise<VerifyCredentialResult> {
  assertUuids(ownerId, agentId);
  const prisma = deps.db.prisma;
  const agent = await prisma.agent.findFirst({ where: ownedAgentWhere(ownerId, agentId), select: { verifiableCredential: true } });
  if (!agent) throw agentNotFound();
  const stored = agentCredentialView.safeParse(agent.verifiableCredential);
  if (!stored.success) return { valid: false, revoked: false, claims: null, errors: ['The agent holds no credential'] };
  return verifyAgentCredential({ masterKey: deps.masterKey, publicUrl: deps.publicUrl, prisma }, stored.data.credential);
}
