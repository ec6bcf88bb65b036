/**
 * What Purser publishes for sellers to verify an agent's request signatures (docs/identity.md):
 * per agent, so one agent's directory says nothing of its owner's other agents.
 *
 * - The key directory (draft-meunier-webbotauth-httpsig-directory), `{"keys": [JWK, ...]}` as
 *   `application/http-message-signatures-directory+json`: the agent's published keys, public
 *   halves only. A suspended or deleted agent's is empty at once, so the owner's kill switch
 *   reaches every seller that verifies; verifiers may cache it KEY_DIRECTORY_MAX_AGE_SECONDS.
 *   The answer is itself signed by each key it lists (tag `http-message-signatures-directory`,
 *   covering the request's `@authority`): proof that whoever serves it holds the keys.
 * - The Signature Agent Card: who the agent is (its DID, name, owner's platform as credential
 *   issuer) and where its directory is.
 */
import { component, createSignature, webcrypto as httpsigWebcrypto, type RequestDescriptor } from 'http-message-sig';
import { KEY_DIRECTORY_MAX_AGE_SECONDS, REQUEST_SIGNATURE_LIFETIME_SECONDS } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { identityPublicJwk } from './agent-keys';
import { issuerIdentifier, platformDid } from './platform-issuer';
import { publishedSigningKeys, signingCryptoKey, type PublishedSigningKey } from './request-signing-keys';

export const KEY_DIRECTORY_PATH = '/.well-known/http-message-signatures-directory/agents/:agentId';
export const SIGNATURE_AGENT_CARD_PATH = '/identity/agents/:agentId/signature-agent-card';
export const DIRECTORY_SIGNATURE_TAG = 'http-message-signatures-directory';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function agentKeyDirectoryUrl(publicUrl: string, agentId: string): string {
  return `${issuerIdentifier(publicUrl)}${KEY_DIRECTORY_PATH.replace(':agentId', agentId)}`;
}

export function signatureAgentCardUrl(publicUrl: string, agentId: string): string {
  return `${issuerIdentifier(publicUrl)}${SIGNATURE_AGENT_CARD_PATH.replace(':agentId', agentId)}`;
}

export function didDocumentUrl(publicUrl: string, did: string): string {
  return `${issuerIdentifier(publicUrl)}/1.0/identifiers/${encodeURIComponent(did)}`;
}

/** Cache-Control of the directory and the card: short, so a suspension reaches verifiers within a minute. */
export const DIRECTORY_CACHE_CONTROL = `public, max-age=${KEY_DIRECTORY_MAX_AGE_SECONDS}`;

export interface DirectoryDeps {
  prisma: TransactionClient;
  masterKey: Buffer;
  publicUrl: string;
}

interface PublishingAgent {
  id: string;
  did: string;
  name: string;
  status: string;
}

async function publishingAgent(prisma: TransactionClient, agentId: string): Promise<PublishingAgent | null> {
  if (!UUID.test(agentId)) return null;
  return prisma.agent.findUnique({ where: { id: agentId }, select: { id: true, did: true, name: true, status: true } });
}

/** The keys a directory publishes: none for an agent that is not active. */
async function directoryKeys(prisma: TransactionClient, agent: PublishingAgent): Promise<PublishedSigningKey[]> {
  return agent.status === 'active' ? publishedSigningKeys(prisma, agent.id) : [];
}

export function directoryJwk(key: PublishedSigningKey) {
  return { ...identityPublicJwk(key.publicKey), kid: key.keyid, alg: 'EdDSA', use: 'sig' };
}

export interface KeyDirectoryAnswer {
  body: { keys: ReturnType<typeof directoryJwk>[] };
  /** Signature-Input and Signature of the answer, one signature per key; empty without keys. */
  headers: Record<string, string>;
}

/**
 * The agent's key directory, signed for the request's authority; null for an agent never known
 * here. `authority` is the Host the verifier asked (what its signature base covers).
 */
export async function agentKeyDirectory(deps: DirectoryDeps, agentId: string, request: { authority: string; path: string }): Promise<KeyDirectoryAnswer | null> {
  const agent = await publishingAgent(deps.prisma, agentId);
  if (!agent) return null;
  const keys = await directoryKeys(deps.prisma, agent);
  const body = { keys: keys.map(directoryJwk) };
  if (keys.length === 0) return { body, headers: {} };
  const created = Math.floor(Date.now() / 1000);
  const requestMessage: RequestDescriptor = { kind: 'request', method: 'GET', targetUri: `https://${request.authority}${request.path}`, fields: [] };
  const signed = await Promise.all(
    keys.map(async (key, index) =>
      createSignature(
        { kind: 'response', status: 200, fields: [], request: requestMessage },
        {
          label: `binding${index + 1}`,
          components: [component('@authority', { req: true })],
          parameters: { created, expires: created + REQUEST_SIGNATURE_LIFETIME_SECONDS, keyid: key.keyid, alg: 'ed25519', tag: DIRECTORY_SIGNATURE_TAG },
          signer: httpsigWebcrypto.signer(await signingCryptoKey(deps.prisma, deps.masterKey, agent.id, key)),
        },
      ),
    ),
  );
  return {
    body,
    headers: {
      'signature-input': signed.map((fields) => fields.signatureInput).join(', '),
      signature: signed.map((fields) => fields.signature).join(', '),
    },
  };
}

/** The agent's Signature Agent Card; null for an agent never known here. */
export async function signatureAgentCard(deps: Pick<DirectoryDeps, 'prisma' | 'publicUrl'>, agentId: string): Promise<Record<string, unknown> | null> {
  const agent = await publishingAgent(deps.prisma, agentId);
  if (!agent) return null;
  const keys = await directoryKeys(deps.prisma, agent);
  return {
    client_name: agent.name,
    client_uri: didDocumentUrl(deps.publicUrl, agent.did),
    purpose: 'An AI agent that calls and pays for APIs through Purser on behalf of its owner',
    did: agent.did,
    status: agent.status,
    credential_issuer: platformDid(deps.publicUrl),
    credential_issuer_metadata: `${issuerIdentifier(deps.publicUrl)}/.well-known/jwt-vc-issuer`,
    jwks_uri: agentKeyDirectoryUrl(deps.publicUrl, agent.id),
    keys: keys.map(directoryJwk),
  };
}
