/**
 * The owner's view of how an agent proves who it is to sellers (docs/identity.md): its keys as
 * its directory publishes them (no private half, ever), the directory, card and DID document
 * URLs, which requests are signed, and the last request signed.
 */
import type { AgentIdentityView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { agentKeyDirectoryUrl, didDocumentUrl, signatureAgentCardUrl } from '../identity/agent-key-directory';
import { currentSigningKeyRow, publishedSigningKeys, type PublishedSigningKey } from '../identity/request-signing-keys';
import { agentNotFound, assertUuids, ownedAgentWhere, type AgentServiceDeps } from './owned-agent';

export async function getAgentIdentity(deps: Pick<AgentServiceDeps, 'db' | 'masterKey' | 'publicUrl'>, ownerId: string, agentId: string): Promise<AgentIdentityView> {
  assertUuids(ownerId, agentId);
  const prisma: TransactionClient = deps.db.prisma;
  const agent = await prisma.agent.findFirst({ where: ownedAgentWhere(ownerId, agentId), select: { id: true, did: true, requestSigning: true } });
  if (!agent) throw agentNotFound();
  // An agent made before request signing gets its key the first time its owner looks.
  await currentSigningKeyRow(prisma, deps.masterKey, agent.id);
  return agentIdentityView(deps.publicUrl, agent, await publishedSigningKeys(prisma, agent.id));
}

export function agentIdentityView(
  publicUrl: string,
  agent: { id: string; did: string; requestSigning: AgentIdentityView['request_signing'] },
  keys: PublishedSigningKey[],
): AgentIdentityView {
  const lastSigned = keys.filter((key) => key.lastSignedAt !== null).sort((a, b) => b.lastSignedAt!.getTime() - a.lastSignedAt!.getTime())[0];
  return {
    agent_id: agent.id,
    did: agent.did,
    request_signing: agent.requestSigning,
    directory_url: agentKeyDirectoryUrl(publicUrl, agent.id),
    signature_agent_card_url: signatureAgentCardUrl(publicUrl, agent.id),
    did_document_url: didDocumentUrl(publicUrl, agent.did),
    keys: keys.map((key) => ({
      keyid: key.keyid,
      algorithm: 'ed25519' as const,
      public_key_jwk: { kty: 'OKP' as const, crv: 'Ed25519' as const, x: key.publicKey },
      created_at: key.createdAt.toISOString(),
      retires_at: key.retiresAt?.toISOString() ?? null,
      current: key.retiresAt === null,
      last_signed_at: key.lastSignedAt?.toISOString() ?? null,
      last_signed_host: key.lastSignedHost,
    })),
    last_signed_at: lastSigned?.lastSignedAt?.toISOString() ?? null,
    last_signed_host: lastSigned?.lastSignedHost ?? null,
  };
}
