/**
 * Verifies an agent credential (a compact SD-JWT VC, with or without a key-binding JWT) for
 * anyone who asks: the issuer's signature, the issuer and type, expiry, and the status in the
 * platform's status list. Expired credentials are checked for signature and status too, so
 * the answer says everything that is wrong at once.
 */
import { digest } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { decodeJwt, decodeProtectedHeader, type JWTPayload, type ProtectedHeaderParameters } from 'jose';
import type { VerifyCredentialResult } from '@purser/core';
import { buildAgentStatusList, STATUS_VALID, type StatusListDeps } from './build-agent-status-list';
import { agentCredentialType, agentStatusListUri, getPlatformIssuer, ISSUER_ALG } from './platform-issuer';

const SD_JWT_VC_TYPES = ['dc+sd-jwt', 'vc+sd-jwt'];

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/Invalid JWT Signature/i.test(message)) return 'Signature does not verify with the issuer key';
  if (/expired/i.test(message)) return 'Credential has expired';
  if (/not yet valid/i.test(message)) return 'Credential is not valid yet';
  return message.replace(/^Verify Error: /, '');
}

export async function verifyAgentCredential(deps: StatusListDeps, credential: string, now = new Date()): Promise<VerifyCredentialResult> {
  const errors: string[] = [];
  let header: ProtectedHeaderParameters;
  let unverified: JWTPayload;
  try {
    const issuerJwt = credential.split('~')[0] ?? '';
    header = decodeProtectedHeader(issuerJwt);
    unverified = decodeJwt(issuerJwt);
  } catch {
    return { valid: false, revoked: false, claims: null, errors: ['Credential is not a compact SD-JWT'] };
  }

  const issuer = await getPlatformIssuer(deps);
  if (unverified.iss !== issuer.issuer) {
    return { valid: false, revoked: false, claims: null, errors: [`Credential was not issued by ${issuer.issuer}`] };
  }
  if (header.alg !== ISSUER_ALG) errors.push(`Unsupported signature algorithm ${String(header.alg)}`);
  if (typeof header.typ !== 'string' || !SD_JWT_VC_TYPES.includes(header.typ)) errors.push('Credential is not an SD-JWT VC');
  if (unverified.vct !== agentCredentialType(deps.publicUrl)) errors.push('Credential is not an agent credential');
  if (!unverified.status) errors.push('Credential has no status');
  if (errors.length > 0) return { valid: false, revoked: false, claims: null, errors };

  const statusUri = agentStatusListUri(deps.publicUrl);
  let observedStatus: number | undefined;
  // The list is checked against the same clock as the credential, so it is dated at that clock.
  let checkedAt = now;
  const sdjwt = new SDJwtVcInstance({
    hasher: digest,
    verifier: issuer.verify,
    statusListFetcher: async (uri) => {
      if (uri !== statusUri) throw new Error(`Unknown status list ${uri}`);
      return buildAgentStatusList(deps, checkedAt);
    },
    statusValidator: async (status) => {
      observedStatus = status;
    },
  });

  const verifyAt = async (currentDate: number) => {
    checkedAt = new Date(currentDate * 1000);
    return (await sdjwt.verify(credential, { currentDate })).payload;
  };
  const nowSeconds = Math.floor(now.getTime() / 1000);
  let claims: Record<string, unknown> | null = null;
  try {
    claims = await verifyAt(nowSeconds);
  } catch (error) {
    const reason = describe(error);
    errors.push(reason);
    if (reason === 'Credential has expired' && typeof unverified.exp === 'number') {
      // Still worth knowing whether the signature holds and the agent was revoked.
      try {
        claims = await verifyAt(unverified.exp - 1);
      } catch (retryError) {
        errors.push(describe(retryError));
      }
    }
  }
  const revoked = observedStatus !== undefined && observedStatus !== STATUS_VALID;
  if (revoked) errors.push('Credential has been revoked');
  return { valid: errors.length === 0 && claims !== null, revoked, claims, errors };
}
