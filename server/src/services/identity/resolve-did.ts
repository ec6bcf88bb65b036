/**
 * DID resolution in the Universal Resolver's response format (W3C DID Resolution):
 * `{ didDocument, didResolutionMetadata, didDocumentMetadata }` with the HTTP status the
 * DID Resolution HTTP binding gives: 200, 400 invalidDid, 404 notFound, 410 for a
 * deactivated (deleted) agent, 501 methodNotSupported. Resolves did:agnic agents and the
 * platform's own did:web.
 */
import { AGENT_DID_METHOD, BASE_SEPOLIA_CHAIN_ID, formatCaip10, parseAgentDid } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { identityPublicJwk } from './agent-keys';
import { agentKeyDirectoryUrl, signatureAgentCardUrl } from './agent-key-directory';
import { publishedSigningKeys } from './request-signing-keys';
import { DID_CORE_CONTEXT, getPlatformDidDocument, JWS_2020_CONTEXT } from './describe-platform-issuer';
import { AGENT_API_PATH, issuerIdentifier, platformDid, type IssuerDeps } from './platform-issuer';

export const SECP256K1_RECOVERY_CONTEXT = 'https://w3id.org/security/suites/secp256k1recovery-2020/v2';
export const DID_RESOLUTION_CONTEXT = 'https://w3id.org/did-resolution/v1';
export const DID_LD_JSON = 'application/did+ld+json';

export interface DidResolutionResult {
  '@context': string;
  didDocument: Record<string, unknown> | null;
  didResolutionMetadata: Record<string, unknown>;
  didDocumentMetadata: Record<string, unknown>;
}

export type ResolveDidDeps = IssuerDeps & { prisma: TransactionClient };

function failure(status: number, error: string, message: string): { status: number; result: DidResolutionResult } {
  return {
    status,
    result: {
      '@context': DID_RESOLUTION_CONTEXT,
      didDocument: null,
      didResolutionMetadata: { error, errorMessage: message },
      didDocumentMetadata: {},
    },
  };
}

export async function resolveDid(deps: ResolveDidDeps, did: string): Promise<{ status: number; result: DidResolutionResult }> {
  const ownDid = platformDid(deps.publicUrl);
  // A did:web's percent-encoded port may arrive decoded when the client did not encode the DID.
  if (did === ownDid || did === decodeURIComponent(ownDid)) {
    return {
      status: 200,
      result: {
        '@context': DID_RESOLUTION_CONTEXT,
        didDocument: await getPlatformDidDocument(deps),
        didResolutionMetadata: { contentType: DID_LD_JSON, did: { didString: ownDid, method: 'web' } },
        didDocumentMetadata: {},
      },
    };
  }
  const method = /^did:([a-z0-9]+):./.exec(did)?.[1];
  if (!method) return failure(400, 'invalidDid', `${did} is not a DID`);
  if (method !== AGENT_DID_METHOD) return failure(501, 'methodNotSupported', `This resolver resolves did:${AGENT_DID_METHOD} and ${ownDid}`);
  const agentId = parseAgentDid(did);
  if (!agentId) return failure(400, 'invalidDid', `${did} is not a did:${AGENT_DID_METHOD} DID`);

  const agent = await deps.prisma.agent.findUnique({
    where: { did },
    select: {
      id: true,
      status: true,
      createdAt: true,
      updatedAt: true,
      wallet: { select: { evmWalletAddress: true } },
      keys: { where: { revokedAt: null, purpose: { not: 'http_signature' } }, orderBy: { createdAt: 'desc' }, select: { purpose: true, publicKey: true } },
    },
  });
  if (!agent) return failure(404, 'notFound', `${did} is not known here`);

  const didResolutionMetadata = { contentType: DID_LD_JSON, did: { didString: did, methodSpecificId: agentId, method: AGENT_DID_METHOD } };
  const timestamps = { created: agent.createdAt.toISOString(), updated: agent.updatedAt.toISOString() };
  if (agent.status === 'deleted') {
    // A deleted agent's keys are revoked: the document keeps its id and nothing it could sign with.
    return {
      status: 410,
      result: {
        '@context': DID_RESOLUTION_CONTEXT,
        didDocument: { '@context': [DID_CORE_CONTEXT], id: did },
        didResolutionMetadata,
        didDocumentMetadata: { ...timestamps, deactivated: true },
      },
    };
  }

  const identity = agent.keys.find((key) => key.purpose === 'identity');
  const evmAddress = agent.wallet?.evmWalletAddress;
  const verificationMethod: Record<string, unknown>[] = [];
  const authentication: string[] = [];
  const assertionMethod: string[] = [];
  if (identity) {
    const id = `${did}#key-1`;
    verificationMethod.push({ id, type: 'JsonWebKey2020', controller: did, publicKeyJwk: identityPublicJwk(identity.publicKey) });
    authentication.push(id);
    assertionMethod.push(id);
  }
  if (evmAddress) {
    const id = `${did}#evm-1`;
    verificationMethod.push({
      id,
      type: 'EcdsaSecp256k1RecoveryMethod2020',
      controller: did,
      blockchainAccountId: formatCaip10(evmAddress, BASE_SEPOLIA_CHAIN_ID),
    });
    assertionMethod.push(id);
  }
  // The keys that sign the agent's HTTP requests, as its key directory publishes them: an agent
  // that is not active has none.
  const signingKeys = agent.status === 'active' ? await publishedSigningKeys(deps.prisma, agent.id) : [];
  for (const key of signingKeys) {
    const id = `${did}#${key.keyid}`;
    verificationMethod.push({ id, type: 'JsonWebKey2020', controller: did, publicKeyJwk: identityPublicJwk(key.publicKey) });
    authentication.push(id);
  }
  return {
    status: 200,
    result: {
      '@context': DID_RESOLUTION_CONTEXT,
      didDocument: {
        '@context': [DID_CORE_CONTEXT, JWS_2020_CONTEXT, SECP256K1_RECOVERY_CONTEXT],
        id: did,
        verificationMethod,
        authentication,
        assertionMethod,
        service: [
          { id: `${did}#agent-api`, type: 'AgentService', serviceEndpoint: `${issuerIdentifier(deps.publicUrl)}${AGENT_API_PATH}` },
          { id: `${did}#http-message-signatures-directory`, type: 'HttpMessageSignaturesDirectory', serviceEndpoint: agentKeyDirectoryUrl(deps.publicUrl, agent.id) },
          { id: `${did}#signature-agent-card`, type: 'SignatureAgentCard', serviceEndpoint: signatureAgentCardUrl(deps.publicUrl, agent.id) },
        ],
      },
      didResolutionMetadata,
      didDocumentMetadata: { ...timestamps, deactivated: false },
    },
  };
}
