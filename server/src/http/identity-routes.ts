/**
 * Public identity endpoints: issuer metadata and the platform's did:web document, the agent
 * credential type, the credential status list, the DID resolver and credential verification.
 * None needs sign-in: DIDs, public keys and statuses are public by design.
 */
import type { FastifyPluginAsync } from 'fastify';
import { buildAgentStatusList, STATUS_LIST_MEDIA_TYPE, STATUS_LIST_TTL_SECONDS } from '../services/identity/build-agent-status-list';
import { getIssuerMetadata, getPlatformDidDocument } from '../services/identity/describe-platform-issuer';
import { AGENT_CREDENTIAL_PATH, AGENT_STATUS_LIST_PATH, agentCredentialType } from '../services/identity/platform-issuer';
import { resolveDid } from '../services/identity/resolve-did';
import type { AppDeps } from '../trpc/context';

export const IDENTITY_ROUTES = {
  issuerMetadata: '/.well-known/jwt-vc-issuer',
  platformDid: '/.well-known/did.json',
  credentialType: AGENT_CREDENTIAL_PATH,
  statusList: AGENT_STATUS_LIST_PATH,
  resolveDid: '/1.0/identifiers/:did',
} as const;

const RESOLUTION_MEDIA_TYPE = 'application/ld+json;profile="https://w3id.org/did-resolution"';

export const identityRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const statusDeps = () => ({ ...deps, prisma: deps.db.prisma });

  app.get(IDENTITY_ROUTES.issuerMetadata, async () => getIssuerMetadata(deps));

  app.get(IDENTITY_ROUTES.platformDid, async (_request, reply) =>
    reply.type('application/did+ld+json').send(JSON.stringify(await getPlatformDidDocument(deps))),
  );

  // SD-JWT VC type metadata for the `vct` of agent credentials.
  app.get(IDENTITY_ROUTES.credentialType, async () => ({
    vct: agentCredentialType(deps.publicUrl),
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
  }));

  app.get(IDENTITY_ROUTES.statusList, async (_request, reply) =>
    reply
      .type(STATUS_LIST_MEDIA_TYPE)
      .header('cache-control', `public, max-age=${STATUS_LIST_TTL_SECONDS}`)
      .send(await buildAgentStatusList(statusDeps())),
  );

  app.get<{ Params: { did: string } }>(IDENTITY_ROUTES.resolveDid, async (request, reply) => {
    const { status, result } = await resolveDid(statusDeps(), request.params.did);
    return reply.status(status).type(RESOLUTION_MEDIA_TYPE).send(JSON.stringify(result));
  });
};
