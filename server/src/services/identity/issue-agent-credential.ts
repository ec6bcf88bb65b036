/**
 * Issues an agent's verifiable credential: an SD-JWT VC signed by the platform issuer.
 * Always-visible claims: sub (the agent DID), kya_tier, agent_status, status (the agent's
 * slot in the token status list) and cnf (the agent's Ed25519 key, for key-bound
 * presentations). Selectively disclosable: owner and spending_rules, which a holder need not
 * show to every verifier.
 */
import { digest, generateSalt } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance, type SdJwtVcPayload } from '@sd-jwt/sd-jwt-vc';
import { toDecimalString, type AgentCredentialView } from '@purser/core';
import type { AgentStatus, KyaTier } from '@purser/db';
import { identityPublicJwk } from './agent-keys';
import { agentCredentialType, agentStatusListUri, getPlatformIssuer, ISSUER_ALG, type IssuerDeps } from './platform-issuer';

/** A credential is good for a year; changes of rules re-issue it sooner. */
export const AGENT_CREDENTIAL_LIFETIME_SECONDS = 365 * 24 * 60 * 60;

export interface AgentCredentialSubject {
  did: string;
  ownerId: string;
  kyaTier: KyaTier;
  status: AgentStatus;
  credentialStatusIndex: number;
  /** base64url of the agent's raw Ed25519 public key. */
  identityPublicKey: string;
  maxTransactionAmount: bigint;
  maxDailyLimit: bigint;
}

export interface AgentCredentialPayload extends SdJwtVcPayload {
  iss: string;
  sub: string;
  iat: number;
  exp: number;
  owner: string;
  kya_tier: KyaTier;
  agent_status: AgentStatus;
  spending_rules: { currency: 'USD'; max_transaction_amount: string; max_daily_limit: string };
}

export async function issueAgentCredential(deps: IssuerDeps, subject: AgentCredentialSubject, now = new Date()): Promise<AgentCredentialView> {
  const issuer = await getPlatformIssuer(deps);
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + AGENT_CREDENTIAL_LIFETIME_SECONDS;
  const payload: AgentCredentialPayload = {
    iss: issuer.issuer,
    sub: subject.did,
    vct: agentCredentialType(deps.publicUrl),
    iat,
    exp,
    cnf: { jwk: identityPublicJwk(subject.identityPublicKey) },
    status: { status_list: { idx: subject.credentialStatusIndex, uri: agentStatusListUri(deps.publicUrl) } },
    owner: subject.ownerId,
    kya_tier: subject.kyaTier,
    agent_status: subject.status,
    spending_rules: {
      currency: 'USD',
      max_transaction_amount: toDecimalString(subject.maxTransactionAmount),
      max_daily_limit: toDecimalString(subject.maxDailyLimit),
    },
  };
  const sdjwt = new SDJwtVcInstance({
    signer: issuer.sign,
    signAlg: ISSUER_ALG,
    hasher: digest,
    hashAlg: 'sha-256',
    saltGenerator: generateSalt,
  });
  // The library's frame type cannot express keys of a payload with an index signature.
  const disclosureFrame = { _sd: ['owner', 'spending_rules'] } as unknown as Parameters<SDJwtVcInstance['issue']>[1];
  const credential = await sdjwt.issue<SdJwtVcPayload>(payload, disclosureFrame, { header: { kid: issuer.kid } });
  return {
    format: 'dc+sd-jwt',
    credential,
    claims: { ...payload },
    issued_at: new Date(iat * 1000).toISOString(),
    expires_at: new Date(exp * 1000).toISOString(),
  };
}
