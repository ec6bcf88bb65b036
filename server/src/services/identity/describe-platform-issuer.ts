/**
 * What the platform publishes about its issuer key: SD-JWT VC issuer metadata
 * (/.well-known/jwt-vc-issuer) and the did:web document of the deployment (/.well-known/did.json).
 */
import type { JWK } from 'jose';
import { getPlatformIssuer, platformDid, type IssuerDeps } from './platform-issuer';

export const DID_CORE_CONTEXT = 'https://www.w3.org/ns/did/v1';
export const JWS_2020_CONTEXT = 'https://w3id.org/security/suites/jws-2020/v1';

export interface IssuerMetadata {
  issuer: string;
  jwks: { keys: JWK[] };
}

export async function getIssuerMetadata(deps: IssuerDeps): Promise<IssuerMetadata> {
  const issuer = await getPlatformIssuer(deps);
  return { issuer: issuer.issuer, jwks: { keys: [issuer.publicJwk] } };
}

export async function getPlatformDidDocument(deps: IssuerDeps): Promise<Record<string, unknown>> {
  const issuer = await getPlatformIssuer(deps);
  const did = platformDid(deps.publicUrl);
  const keyId = `${did}#${issuer.kid}`;
  return {
    '@context': [DID_CORE_CONTEXT, JWS_2020_CONTEXT],
    id: did,
    alsoKnownAs: [issuer.issuer],
    verificationMethod: [{ id: keyId, type: 'JsonWebKey2020', controller: did, publicKeyJwk: issuer.publicJwk }],
    assertionMethod: [keyId],
  };
}
