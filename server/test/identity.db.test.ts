/**
 * Identity on a real database: the platform issuer, agent credentials (SD-JWT VC) checked by
 * an outside verifier with nothing but the published key and status list, revocation through
 * the status list, the verify endpoint, and DID resolution.
 */
import { createPublicKey, randomBytes, randomUUID, sign, verify, type JsonWebKey } from 'node:crypto';
import { digest } from '@sd-jwt/crypto-nodejs';
import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { decodeJwt, decodeProtectedHeader, type JWK } from 'jose';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentInput, formatAgentDid, updateSpendingRulesInput, type CreateAgentResult } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { createAgent } from '../src/services/agents/create-agent';
import { deleteAgent } from '../src/services/agents/delete-agent';
import { reactivateAgent } from '../src/services/agents/reactivate-agent';
import { suspendAgent } from '../src/services/agents/suspend-agent';
import { updateSpendingRules } from '../src/services/agents/update-spending-rules';
import { readAgentPrivateKey } from '../src/services/identity/agent-keys';
import { issueAgentCredential } from '../src/services/identity/issue-agent-credential';
import { ed25519PrivateKeyFromSeed, getPlatformIssuer } from '../src/services/identity/platform-issuer';
import { createTestApp, type TestApp } from './support/test-app';
import { createOwner } from './support/wallet-fixtures';

let t: TestApp;
let prisma: PrismaClient;

beforeAll(async () => {
  t = await createTestApp();
  prisma = t.deps.db.prisma;
});

afterAll(async () => {
  await t?.cleanup();
});

async function newOwnerId(): Promise<string> {
  return (await createOwner(prisma, 'Identity Owner')).userId;
}

async function newAgent(name = 'Identity agent'): Promise<CreateAgentResult & { ownerId: string; credential: string }> {
  const ownerId = await newOwnerId();
  const created = await createAgent(t.deps, ownerId, createAgentInput.parse({ name }));
  return { ...created, ownerId, credential: created.agent.verifiable_credential!.credential };
}

async function get(url: string) {
  return t.app.inject({ method: 'GET', url });
}

/** What an outside verifier has: the issuer key from the published metadata. */
async function publishedIssuerVerifier(): Promise<(data: string, signature: string) => boolean> {
  const response = await get('/.well-known/jwt-vc-issuer');
  expect(response.statusCode).toBe(200);
  const metadata = response.json() as { issuer: string; jwks: { keys: JWK[] } };
  expect(metadata.issuer).toBe(t.deps.publicUrl);
  expect(metadata.jwks.keys).toHaveLength(1);
  const key = createPublicKey({ key: metadata.jwks.keys[0] as JsonWebKey, format: 'jwk' });
  return (data, signature) => verify(null, Buffer.from(data), key, Buffer.from(signature, 'base64url'));
}

/** A fresh @sd-jwt verifier that fetches the status list from the URI in the credential. */
async function outsideVerifier(): Promise<SDJwtVcInstance> {
  return new SDJwtVcInstance({
    hasher: digest,
    verifier: await publishedIssuerVerifier(),
    statusListFetcher: async (uri) => {
      const url = new URL(uri);
      expect(url.origin).toBe(t.deps.publicUrl);
      const response = await get(url.pathname);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('application/statuslist+jwt');
      return response.body;
    },
  });
}

async function statusOf(credential: string): Promise<number> {
  const { status } = decodeJwt(credential.split('~')[0]!) as { status: { status_list: { idx: number; uri: string } } };
  const list = await get(new URL(status.status_list.uri).pathname);
  return getListFromStatusListJWT(list.body).getStatus(status.status_list.idx);
}

async function verifyViaEndpoint(credential: unknown) {
  return t.app.inject({ method: 'POST', url: '/api/v1/credentials/verify', payload: { credential } as object });
}

describe('the platform issuer', () => {
  it('publishes one Ed25519 key as SD-JWT VC issuer metadata and in its did:web document', async () => {
    const metadata = (await get('/.well-known/jwt-vc-issuer')).json();
    expect(metadata.jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig', kid: expect.any(String) });
    expect(metadata.jwks.keys[0].d).toBeUndefined();

    const did = await get('/.well-known/did.json');
    expect(did.statusCode).toBe(200);
    const document = did.json();
    expect(document.id).toBe('did:web:127.0.0.1%3A3000');
    expect(document.verificationMethod[0]).toMatchObject({ type: 'JsonWebKey2020', controller: document.id, publicKeyJwk: metadata.jwks.keys[0] });
    expect(document.assertionMethod).toEqual([document.verificationMethod[0].id]);
  });

  it('is the same key on every replica sharing the master key and another key under another master key', async () => {
    const here = await getPlatformIssuer(t.deps);
    const replica = await getPlatformIssuer({ masterKey: Buffer.from(t.deps.masterKey), publicUrl: t.deps.publicUrl });
    const elsewhere = await getPlatformIssuer({ masterKey: randomBytes(32), publicUrl: t.deps.publicUrl });
    expect(replica.publicJwk).toEqual(here.publicJwk);
    expect(replica.verify('hello', here.sign('hello'))).toBe(true);
    expect(elsewhere.kid).not.toBe(here.kid);
  });
});

describe('agent credentials', () => {
  it('verify with the @sd-jwt libraries alone, from the published issuer key and status list', async () => {
    const { agent, ownerId, credential } = await newAgent();
    const header = decodeProtectedHeader(credential.split('~')[0]!);
    expect(header).toMatchObject({ alg: 'EdDSA', typ: 'dc+sd-jwt', kid: expect.any(String) });

    const { payload } = await (await outsideVerifier()).verify(credential);
    expect(payload).toMatchObject({
      iss: t.deps.publicUrl,
      sub: agent.did,
      vct: `${t.deps.publicUrl}/credentials/agent`,
      owner: ownerId,
      kya_tier: 'basic',
      agent_status: 'active',
      spending_rules: { currency: 'USD', max_transaction_amount: '100', max_daily_limit: '1000' },
      status: { status_list: { uri: `${t.deps.publicUrl}/statuslists/agents` } },
    });
    expect(payload.exp! - payload.iat!).toBeGreaterThan(300 * 24 * 3600);

    // owner and spending_rules are selectively disclosable: a presentation may leave them out.
    const sdjwt = await outsideVerifier();
    const presented = await sdjwt.present(credential, { kya_tier: true } as never);
    const { payload: minimal } = await sdjwt.verify(presented);
    expect(minimal.owner).toBeUndefined();
    expect(minimal.spending_rules).toBeUndefined();
    expect(minimal.sub).toBe(agent.did);

    const list = (await get('/statuslists/agents')).body;
    expect(decodeProtectedHeader(list)).toMatchObject({ typ: 'statuslist+jwt', alg: 'EdDSA' });
    expect(decodeJwt(list)).toMatchObject({ sub: `${t.deps.publicUrl}/statuslists/agents`, iss: t.deps.publicUrl, ttl: 60 });
  });

  it('read as revoked in the status list once the agent is suspended, and valid again once it is reactivated', async () => {
    const { agent, ownerId, credential } = await newAgent();
    expect(await statusOf(credential)).toBe(0);

    await suspendAgent(t.deps, ownerId, agent.id);
    expect(await statusOf(credential)).toBe(1);
    await expect((await outsideVerifier()).verify(credential)).rejects.toThrow(/Status is not valid/);

    await reactivateAgent(t.deps, ownerId, agent.id);
    expect(await statusOf(credential)).toBe(0);
    await expect((await outsideVerifier()).verify(credential)).resolves.toMatchObject({ payload: { sub: agent.did } });
  });

  it('read as revoked once the agent is deleted', async () => {
    const { agent, ownerId, credential } = await newAgent();
    await deleteAgent(t.deps, ownerId, agent.id);
    expect(await statusOf(credential)).toBe(1);
    await expect((await outsideVerifier()).verify(credential)).rejects.toThrow(/Status is not valid/);
  });

  it('are re-issued when the spending rules change, and the superseded credential stops verifying', async () => {
    const { agent, ownerId, credential } = await newAgent();
    const updated = await updateSpendingRules(t.deps, ownerId, updateSpendingRulesInput.parse({ agent_id: agent.id, max_daily_limit: 20 }));
    const fresh = updated.verifiable_credential!.credential;
    const { payload } = await (await outsideVerifier()).verify(fresh);
    expect(payload.spending_rules).toEqual({ currency: 'USD', max_transaction_amount: '100', max_daily_limit: '20' });
    expect(await statusOf(credential)).toBe(1);
    await expect((await outsideVerifier()).verify(credential)).rejects.toThrow(/Status is not valid/);
  });

  it('fail an outside verifier when signed by another key', async () => {
    const { agent, credential } = await newAgent();
    const idx = (decodeJwt(credential.split('~')[0]!) as { status: { status_list: { idx: number } } }).status.status_list.idx;
    const keys = await prisma.agentKey.findFirstOrThrow({ where: { agentId: agent.id, purpose: 'identity' }, select: { publicKey: true } });
    const forged = await issueAgentCredential(
      { masterKey: randomBytes(32), publicUrl: t.deps.publicUrl },
      { did: agent.did, ownerId: agent.owner_id, kyaTier: 'high', status: 'active', credentialStatusIndex: idx, identityPublicKey: keys.publicKey, maxTransactionAmount: 1n, maxDailyLimit: 1n },
    );
    await expect((await outsideVerifier()).verify(forged.credential)).rejects.toThrow(/Invalid JWT Signature/);
  });
});

describe('POST /api/v1/credentials/verify', () => {
  it('answers valid with the claims for a current credential, without sign-in', async () => {
    const { agent, credential } = await newAgent();
    const response = await verifyViaEndpoint(credential);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ valid: true, revoked: false, errors: [], claims: { sub: agent.did, kya_tier: 'basic' } });
  });

  it('answers revoked for a suspended agent, and valid again after reactivation', async () => {
    const { agent, ownerId, credential } = await newAgent();
    await suspendAgent(t.deps, ownerId, agent.id);
    expect((await verifyViaEndpoint(credential)).json()).toMatchObject({
      valid: false,
      revoked: true,
      errors: ['Credential has been revoked'],
      claims: { sub: agent.did },
    });
    await reactivateAgent(t.deps, ownerId, agent.id);
    expect((await verifyViaEndpoint(credential)).json()).toMatchObject({ valid: true, revoked: false });
  });

  it('reports a bad signature, another issuer, expiry and malformed input', async () => {
    const { agent, ownerId, credential } = await newAgent();
    const [jwt, ...rest] = credential.split('~');
    const [h, p, s] = jwt!.split('.');
    const flipped = `${s![0] === 'A' ? 'B' : 'A'}${s!.slice(1)}`;
    const tampered = [`${h}.${p}.${flipped}`, ...rest].join('~');
    expect((await verifyViaEndpoint(tampered)).json()).toEqual({
      valid: false,
      revoked: false,
      claims: null,
      errors: ['Signature does not verify with the issuer key'],
    });

    const row = await prisma.agent.findUniqueOrThrow({ where: { id: agent.id }, select: { credentialStatusIndex: true } });
    const keys = await prisma.agentKey.findFirstOrThrow({ where: { agentId: agent.id, purpose: 'identity' }, select: { publicKey: true } });
    const subject = {
      did: agent.did,
      ownerId,
      kyaTier: 'pseudonymous' as const,
      status: 'active' as const,
      credentialStatusIndex: row.credentialStatusIndex,
      identityPublicKey: keys.publicKey,
      maxTransactionAmount: 1n,
      maxDailyLimit: 1n,
    };
    const foreign = await issueAgentCredential({ masterKey: t.deps.masterKey, publicUrl: 'https://elsewhere.example' }, subject);
    expect((await verifyViaEndpoint(foreign.credential)).json()).toMatchObject({
      valid: false,
      claims: null,
      errors: [`Credential was not issued by ${t.deps.publicUrl}`],
    });

    const twoYearsAgo = new Date(Date.now() - 2 * 365 * 24 * 3600 * 1000);
    const expired = await issueAgentCredential(t.deps, subject, twoYearsAgo);
    expect((await verifyViaEndpoint(expired.credential)).json()).toMatchObject({
      valid: false,
      revoked: false,
      errors: ['Credential has expired'],
      claims: { sub: agent.did },
    });

    expect((await verifyViaEndpoint('not-a-jwt')).json()).toMatchObject({ valid: false, errors: ['Credential is not a compact SD-JWT'] });
    const missing = await t.app.inject({ method: 'POST', url: '/api/v1/credentials/verify', payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.code).toBe('VALIDATION_FAILED');
  });
});

describe('DID resolution', () => {
  it("resolves an agent DID to a DID document whose Ed25519 key verifies the agent's signature and whose account is its EVM key", async () => {
    const { agent } = await newAgent();
    const response = await get(`/1.0/identifiers/${encodeURIComponent(agent.did)}`);
    expect(response.statusCode).toBe(200);
    const { didDocument, didResolutionMetadata, didDocumentMetadata } = response.json();
    expect(didResolutionMetadata.contentType).toBe('application/did+ld+json');
    expect(didDocumentMetadata.deactivated).toBe(false);
    expect(didDocument['@context'][0]).toBe('https://www.w3.org/ns/did/v1');
    expect(didDocument.id).toBe(agent.did);

    const key = didDocument.verificationMethod.find((method: { id: string }) => method.id === `${agent.did}#key-1`);
    expect(key).toMatchObject({ id: `${agent.did}#key-1`, controller: agent.did, publicKeyJwk: { kty: 'OKP', crv: 'Ed25519' } });
    expect(didDocument.authentication).toContain(key.id);
    expect(didDocument.assertionMethod).toContain(key.id);

    const message = Buffer.from(`agent ${agent.did} says hello`);
    const seed = await readAgentPrivateKey(prisma, t.deps.masterKey, agent.id, 'identity');
    const signature = sign(null, message, ed25519PrivateKeyFromSeed(seed));
    const published = createPublicKey({ key: key.publicKeyJwk, format: 'jwk' });
    expect(verify(null, message, published, signature)).toBe(true);
    expect(verify(null, Buffer.from('something else'), published, signature)).toBe(false);

    const account = didDocument.verificationMethod.find((method: { type: string }) => method.type === 'EcdsaSecp256k1RecoveryMethod2020');
    const scalar = await readAgentPrivateKey(prisma, t.deps.masterKey, agent.id, 'evm');
    expect(account.blockchainAccountId).toBe(`eip155:84532:${privateKeyToAccount(`0x${scalar.toString('hex')}`).address}`);
    expect(account.blockchainAccountId).toBe(`eip155:84532:${agent.agent_wallets?.evm_wallet_address}`);

    expect(didDocument.service).toEqual([
      { id: `${agent.did}#agent-api`, type: 'AgentService', serviceEndpoint: `${t.deps.publicUrl}/functions/v1/mcp-server` },
      {
        id: `${agent.did}#http-message-signatures-directory`,
        type: 'HttpMessageSignaturesDirectory',
        serviceEndpoint: `${t.deps.publicUrl}/.well-known/http-message-signatures-directory/agents/${agent.id}`,
      },
      { id: `${agent.did}#signature-agent-card`, type: 'SignatureAgentCard', serviceEndpoint: `${t.deps.publicUrl}/identity/agents/${agent.id}/signature-agent-card` },
    ]);
    // The key that signs its HTTP requests, by its thumbprint, beside the identity key.
    const signing = didDocument.verificationMethod.filter((method: { id: string; type: string }) => method.id !== key.id && method.type === 'JsonWebKey2020');
    expect(signing).toHaveLength(1);
    expect(signing[0].id).toMatch(new RegExp(`^${agent.did}#[A-Za-z0-9_-]{43}$`));
    expect(signing[0].publicKeyJwk).not.toEqual(key.publicKeyJwk);
    expect(didDocument.authentication).toContain(signing[0].id);
    // The credential's holder key is the DID's key.
    expect(agent.verifiable_credential?.claims.cnf).toEqual({ jwk: key.publicKeyJwk });
  });

  it('answers notFound for an unknown agent, invalidDid for a malformed one and methodNotSupported for other methods', async () => {
    const unknown = await get(`/1.0/identifiers/${encodeURIComponent(formatAgentDid(randomUUID()))}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ didDocument: null, didResolutionMetadata: { error: 'notFound' }, didDocumentMetadata: {} });

    const malformed = await get(`/1.0/identifiers/${encodeURIComponent('did:agnic:nope')}`);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().didResolutionMetadata.error).toBe('invalidDid');

    const other = await get(`/1.0/identifiers/${encodeURIComponent('did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK')}`);
    expect(other.statusCode).toBe(501);
    expect(other.json().didResolutionMetadata.error).toBe('methodNotSupported');

    const platform = await get(`/1.0/identifiers/${encodeURIComponent('did:web:127.0.0.1%3A3000')}`);
    expect(platform.statusCode).toBe(200);
    expect(platform.json().didDocument).toEqual((await get('/.well-known/did.json')).json());
  });

  it('marks a deleted agent DID deactivated and lists no keys for it', async () => {
    const { agent, ownerId } = await newAgent();
    await deleteAgent(t.deps, ownerId, agent.id);
    const response = await get(`/1.0/identifiers/${encodeURIComponent(agent.did)}`);
    expect(response.statusCode).toBe(410);
    const result = response.json();
    expect(result.didDocumentMetadata.deactivated).toBe(true);
    expect(result.didDocument).toEqual({ '@context': ['https://www.w3.org/ns/did/v1'], id: agent.did });
  });
});
