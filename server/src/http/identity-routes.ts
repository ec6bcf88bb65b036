/**
 * Public identity endpoints: issuer metadata and the platform's did:web document, the agent
 * credential type, the credential status list, the DID resolver and credential verification.
 * None needs sign-in: DIDs, public keys and statuses are public by design.
 */
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import {
  AppError,
  credentialTypeMetadataView,
  KEY_DIRECTORY_MEDIA_TYPE,
  publicEd25519Jwk,
  didDocumentView,
  didResolutionView,
  issuerMetadataView,
  jwksView,
  type CredentialTypeMetadataView,
  type IssuerMetadataView,
} from '@purser/core';
import { buildAgentStatusList, STATUS_LIST_MEDIA_TYPE, STATUS_LIST_TTL_SECONDS } from '../services/identity/build-agent-status-list';
import { getIssuerMetadata, getPlatformDidDocument } from '../services/identity/describe-platform-issuer';
import { AGENT_CREDENTIAL_PATH, AGENT_STATUS_LIST_PATH, agentCredentialType } from '../services/identity/platform-issuer';
import { resolveDid } from '../services/identity/resolve-did';
import {
  agentKeyDirectory,
  DIRECTORY_CACHE_CONTROL,
  KEY_DIRECTORY_PATH,
  SIGNATURE_AGENT_CARD_PATH,
  signatureAgentCard,
} from '../services/identity/agent-key-directory';
import type { AppDeps } from '../deps';
import { defineRoute, type ApiRoute } from './api-v1/define-route';
import { registerRoute } from './api-v1/register-route';

export const IDENTITY_ROUTES = {
  issuerMetadata: '/.well-known/jwt-vc-issuer',
  jwks: '/.well-known/jwks.json',
  platformDid: '/.well-known/did.json',
  credentialType: AGENT_CREDENTIAL_PATH,
  statusList: AGENT_STATUS_LIST_PATH,
  resolveDid: '/1.0/identifiers/:did',
  agentKeyDirectory: KEY_DIRECTORY_PATH,
  signatureAgentCard: SIGNATURE_AGENT_CARD_PATH,
} as const;

const agentParams = z.object({ agentId: z.string() });
const directoryJwkView = publicEd25519Jwk.extend({ kid: z.string(), alg: z.literal('EdDSA'), use: z.literal('sig') });

const RESOLUTION_MEDIA_TYPE = 'application/ld+json;profile="https://w3id.org/did-resolution"';

const TAG = 'Identity';

const statusDeps = (deps: AppDeps) => ({ ...deps, prisma: deps.db.prisma });

/** SD-JWT VC type metadata for the `vct` of agent credentials. */
function credentialTypeMetadata(publicUrl: string): CredentialTypeMetadataView {
  return {
    vct: agentCredentialType(publicUrl),
    name: 'Purser agent credential',
    description: "An AI agent's identity on Purser: its DID, owner, KYA tier, spending rules and status.",
    display: [{ locale: 'en', name: 'Purser agent', description: 'AI agent identity and spending limits' }],
    claims: [
      { path: ['sub'], display: [{ locale: 'en', label: 'Agent DID' }], sd: 'never' },
      { path: ['owner'], display: [{ locale: 'en', label: 'Owner' }], sd: 'always' },
      { path: ['kya_tier'], display: [{ locale: 'en', label: 'KYA tier' }], sd: 'never' },
      { path: ['agent_status'], display: [{ locale: 'en', label: 'Agent status at issuance' }], sd: 'never' },
      { path: ['spending_rules'], display: [{ locale: 'en', label: 'Spending rules' }], sd: 'always' },
      { path: ['spending_rules', 'max_transaction_amount'], display: [{ locale: 'en', label: 'Maximum per transaction (USD)' }] },
      { path: ['spending_rules', 'max_daily_limit'], display: [{ locale: 'en', label: 'Daily limit (USD)' }] },
    ],
  };
}

export const identityApiRoutes = [
  defineRoute({
    method: 'GET',
    path: IDENTITY_ROUTES.issuerMetadata,
    operationId: 'getIssuerMetadata',
    summary: "SD-JWT VC issuer metadata: the platform's public keys that sign agent credentials",
    tag: TAG,
    auth: 'public',
    response: issuerMetadataView,
    // jose types every member of a JWK optional; the response parse checks the issuer key has them.
    handler: async ({ deps }) => (await getIssuerMetadata(deps)) as IssuerMetadataView,
  }),
  defineRoute({
    method: 'GET',
    path: IDENTITY_ROUTES.jwks,
    operationId: 'getIssuerJwks',
    summary: "The platform issuer's public keys as a JSON Web Key Set: they verify agent credentials and Purser's payment receipts",
    tag: TAG,
    auth: 'public',
    response: jwksView,
    handler: async ({ deps }) => (await getIssuerMetadata(deps)).jwks as IssuerMetadataView['jwks'],
  }),
  defineRoute({
    method: 'GET',
    path: IDENTITY_ROUTES.platformDid,
    operationId: 'getPlatformDidDocument',
    summary: "The platform's did:web document",
    tag: TAG,
    auth: 'public',
    mediaType: 'application/did+ld+json',
    response: didDocumentView,
    handler: async ({ deps, reply }) => reply.type('application/did+ld+json').send(JSON.stringify(await getPlatformDidDocument(deps))),
  }),
  defineRoute({
    method: 'GET',
    path: IDENTITY_ROUTES.credentialType,
    operationId: 'getAgentCredentialType',
    summary: 'SD-JWT VC type metadata for the `vct` of agent credentials',
    tag: TAG,
    auth: 'public',
    response: credentialTypeMetadataView,
    handler: async ({ deps }) => credentialTypeMetadata(deps.publicUrl),
  }),
  defineRoute({
    method: 'GET',
    path: IDENTITY_ROUTES.statusList,
    operationId: 'getAgentStatusList',
    summary: 'The status list of agent credentials (Token Status List), a signed JWT; a set bit marks a credential revoked',
    tag: TAG,
    auth: 'public',
    mediaType: STATUS_LIST_MEDIA_TYPE,
    response: z.string(),
    handler: async ({ deps, reply }) =>
      reply
        .type(STATUS_LIST_MEDIA_TYPE)
        .header('cache-control', `public, max-age=${STATUS_LIST_TTL_SECONDS}`)
        .send(await buildAgentStatusList(statusDeps(deps))),
  }),
  defineRoute({
    method: 'GET',
    path: IDENTITY_ROUTES.resolveDid,
    operationId: 'resolveDid',
    summary: "Resolve a did:agnic agent or the platform's did:web (DID Resolution HTTP binding)",
    description: 'Failures are resolution results too, with `didResolutionMetadata.error` and the status of the HTTP binding.',
    tag: TAG,
    auth: 'public',
    params: z.object({ did: z.string() }),
    mediaType: RESOLUTION_MEDIA_TYPE,
    response: didResolutionView,
    otherResponses: {
      400: 'invalidDid: not a DID',
      404: 'notFound: no such agent',
      410: 'The agent was deleted: its DID is deactivated',
      501: 'methodNotSupported: a DID method other than did:agnic and the platform did:web',
    },
    handler: async ({ deps, params, reply }) => {
      const { status, result } = await resolveDid(statusDeps(deps), params.did);
      return reply.status(status).type(RESOLUTION_MEDIA_TYPE).send(JSON.stringify(result));
    },
  }),
  defineRoute({
    method: 'GET',
    path: IDENTITY_ROUTES.agentKeyDirectory,
    operationId: 'getAgentKeyDirectory',
    summary: "An agent's HTTP message signatures directory (Web Bot Auth): the public keys its requests are signed with",
    description:
      'Named in the `Signature-Agent` header of every request Purser signs for the agent. Empty for a suspended or deleted agent. ' +
      'The answer is signed by each key it lists (tag `http-message-signatures-directory`). Cacheable for 30 seconds.',
    tag: TAG,
    auth: 'public',
    params: agentParams,
    mediaType: KEY_DIRECTORY_MEDIA_TYPE,
    response: z.object({ keys: z.array(directoryJwkView) }),
    otherResponses: { 404: 'No such agent' },
    handler: async ({ deps, params, request, reply }) => {
      const answer = await agentKeyDirectory(statusDeps(deps), params.agentId, { authority: request.headers.host ?? new URL(deps.publicUrl).host, path: request.url });
      if (!answer) throw new AppError('NOT_FOUND', 'Agent not found');
      return reply.type(KEY_DIRECTORY_MEDIA_TYPE).header('cache-control', DIRECTORY_CACHE_CONTROL).headers(answer.headers).send(JSON.stringify(answer.body));
    },
  }),
  defineRoute({
    method: 'GET',
    path: IDENTITY_ROUTES.signatureAgentCard,
    operationId: 'getSignatureAgentCard',
    summary: "An agent's Signature Agent Card: its DID, name, credential issuer and key directory",
    tag: TAG,
    auth: 'public',
    params: agentParams,
    response: z.looseObject({ did: z.string(), client_name: z.string(), jwks_uri: z.string(), keys: z.array(directoryJwkView) }),
    otherResponses: { 404: 'No such agent' },
    handler: async ({ deps, params, reply }) => {
      const card = await signatureAgentCard(statusDeps(deps), params.agentId);
      if (!card) throw new AppError('NOT_FOUND', 'Agent not found');
      return reply.type('application/json').header('cache-control', DIRECTORY_CACHE_CONTROL).send(JSON.stringify(card));
    },
  }),
] as ApiRoute[];

export const identityRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  for (const route of identityApiRoutes) registerRoute(app, route, { deps });
};
