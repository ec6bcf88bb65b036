/**
 * An agent's request-signing identity through the owner REST API, on a real database: what the
 * owner reads (public halves only), what the public directory, card and DID document publish
 * (the directory's answer signed, cacheable briefly), rotation with its overlap and revocation
 * without one, suspension emptying the directory, the owner's signing rule, who may call each
 * route, and the audit entries, which carry no key material.
 */
import { webcrypto } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { verifySignature, webcrypto as httpsigWebcrypto, type ResponseDescriptor } from 'http-message-sig';
import { calculateJwkThumbprint } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY_DIRECTORY_MEDIA_TYPE, SIGNING_KEY_ROTATION_OVERLAP_SECONDS, type AgentIdentityView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { readAgentPrivateKey } from '../src/services/identity/agent-keys';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let stranger: SignedUpOwner;

beforeAll(async () => {
  t = await createTestApp();
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma, 'Identity Owner');
  stranger = await signUpTestOwner(t.app, prisma, 'Other Owner');
}, 120_000);

afterAll(async () => {
  await t?.cleanup();
});

/** The host a verifier asks the directory at: what the directory's own signature covers. */
const VERIFIER_HOST = 'directory.verifier.test';

type Method = 'GET' | 'POST' | 'PATCH';
type Caller = { headers: { authorization: string } };
type DirectoryJwk = { kty: string; crv: string; x: string; kid: string; d?: unknown };

function api(caller: Caller, method: Method, path: string, payload?: object): Promise<LightMyRequestResponse> {
  return t.app.inject({ method, url: `/api/v1${path}`, headers: caller.headers, ...(payload ? { payload } : {}) });
}

async function newAgent(name: string): Promise<{ id: string; did: string; name: string }> {
  const response = await api(owner, 'POST', '/agents', { name });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { agent: { id: string; did: string; name: string } }).agent;
}

async function identityOf(agentId: string, caller: Caller = owner): Promise<AgentIdentityView> {
  const response = await api(caller, 'GET', `/agents/${agentId}/identity`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as AgentIdentityView;
}

async function change(agentId: string, what: 'rotate-key' | 'revoke-key'): Promise<AgentIdentityView> {
  const response = await api(owner, 'POST', `/agents/${agentId}/identity/${what}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as AgentIdentityView;
}

/** The public directory, asked the way a seller's verifier asks it. */
async function directory(agentId: string): Promise<{ response: LightMyRequestResponse; kids: string[]; keys: DirectoryJwk[] }> {
  const response = await t.app.inject({ method: 'GET', url: `/.well-known/http-message-signatures-directory/agents/${agentId}`, headers: { host: VERIFIER_HOST } });
  expect(response.statusCode, response.body).toBe(200);
  const keys = (response.json() as { keys: DirectoryJwk[] }).keys;
  return { response, keys, kids: keys.map((key) => key.kid) };
}

async function didDocument(did: string): Promise<{ verificationMethod: Array<{ id: string; publicKeyJwk?: { x: string } }>; authentication: string[]; service: Array<{ serviceEndpoint: string }> }> {
  const response = await t.app.inject({ method: 'GET', url: `/1.0/identifiers/${encodeURIComponent(did)}` });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { didDocument: never }).didDocument;
}

const methodIds = async (did: string) => (await didDocument(did)).verificationMethod.map((method) => method.id);

/** The current signing key's private seed in every encoding a leak could take. */
async function seedEncodings(agentId: string): Promise<string[]> {
  const seed = await readAgentPrivateKey(prisma, t.deps.masterKey, agentId, 'http_signature');
  return [seed.toString('base64url'), seed.toString('base64'), seed.toString('hex')];
}

/** Whether any object in the value has a JWK private member `d`. */
function hasPrivateMember(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasPrivateMember);
  if (value && typeof value === 'object') return Object.entries(value).some(([key, inner]) => key === 'd' || hasPrivateMember(inner));
  return false;
}

const maxAge = (response: LightMyRequestResponse) => Number(/max-age=(\d+)/.exec(String(response.headers['cache-control']))?.[1]);

/** Checks the directory answer's own signature (RFC 9421, over the request's @authority) with the key it lists. */
async function verifyDirectorySignature(response: LightMyRequestResponse, jwk: DirectoryJwk, authority: string): Promise<string | undefined> {
  const message: ResponseDescriptor = {
    kind: 'response',
    status: response.statusCode,
    fields: [
      { name: 'signature-input', value: String(response.headers['signature-input']) },
      { name: 'signature', value: String(response.headers.signature) },
    ],
    request: { kind: 'request', method: 'GET', targetUri: `https://${authority}${response.raw.req.url}`, fields: [] },
  };
  const key = await webcrypto.subtle.importKey('jwk', { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, { name: 'Ed25519' }, false, ['verify']);
  const verified = await verifySignature(message, {
    policy: { algorithms: ['ed25519'], requiredComponents: [], requiredParameters: ['created', 'expires', 'keyid', 'tag'] },
    resolveVerifier: () => httpsigWebcrypto.verifier(key),
  });
  return verified.parameters.tag;
}

describe("the owner's view of an agent's identity", () => {
  it('answers the keyid (the RFC 7638 thumbprint), the directory, card and DID document URLs and the signing rule, and no private key material', async () => {
    const agent = await newAgent('Signing agent');
    const response = await api(owner, 'GET', `/agents/${agent.id}/identity`);
    expect(response.statusCode, response.body).toBe(200);
    const identity = response.json() as AgentIdentityView;
    const base = t.deps.publicUrl;
    expect(identity).toMatchObject({
      agent_id: agent.id,
      did: agent.did,
      request_signing: 'always',
      directory_url: `${base}/.well-known/http-message-signatures-directory/agents/${agent.id}`,
      signature_agent_card_url: `${base}/identity/agents/${agent.id}/signature-agent-card`,
      did_document_url: `${base}/1.0/identifiers/${encodeURIComponent(agent.did)}`,
      last_signed_at: null,
      last_signed_host: null,
    });
    expect(identity.keys).toHaveLength(1);
    const [key] = identity.keys;
    expect(key).toMatchObject({ algorithm: 'ed25519', current: true, retires_at: null, public_key_jwk: { kty: 'OKP', crv: 'Ed25519' } });
    expect(key!.keyid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(key!.keyid).toBe(await calculateJwkThumbprint(key!.public_key_jwk, 'sha256'));
    expect(hasPrivateMember(response.json())).toBe(false);
    for (const secret of await seedEncodings(agent.id)) expect(response.body).not.toContain(secret);
  });

  it('gives two agents different keys, and neither directory lists the other', async () => {
    const [first, second] = [await newAgent('Agent one'), await newAgent('Agent two')];
    const [a, b] = [(await identityOf(first.id)).keys[0]!.keyid, (await identityOf(second.id)).keys[0]!.keyid];
    expect(a).not.toBe(b);
    expect((await directory(first.id)).kids).toEqual([a]);
    expect((await directory(second.id)).kids).toEqual([b]);
  });

  it('makes a key the first time the owner looks at an agent created before request signing, and only one', async () => {
    const agent = await newAgent('Older agent');
    await prisma.agentKey.deleteMany({ where: { agentId: agent.id, purpose: 'http_signature' } });
    expect((await directory(agent.id)).kids).toEqual([]);
    const first = await identityOf(agent.id);
    expect(first.keys).toHaveLength(1);
    expect((await identityOf(agent.id)).keys.map((key) => key.keyid)).toEqual([first.keys[0]!.keyid]);
    expect(await prisma.agentKey.count({ where: { agentId: agent.id, purpose: 'http_signature' } })).toBe(1);
    expect((await directory(agent.id)).kids).toEqual([first.keys[0]!.keyid]);
  });
});

describe('what sellers fetch', () => {
  it('the directory lists exactly the current key, public half only, signed for the asking host and cacheable under a minute', async () => {
    const agent = await newAgent('Published agent');
    const { keys: [owned] } = await identityOf(agent.id);
    const { response, keys, kids } = await directory(agent.id);
    expect(response.headers['content-type']).toContain(KEY_DIRECTORY_MEDIA_TYPE);
    expect(maxAge(response)).toBeGreaterThan(0);
    expect(maxAge(response)).toBeLessThanOrEqual(60);
    expect(kids).toEqual([owned!.keyid]);
    expect(keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', x: owned!.public_key_jwk.x });
    expect(hasPrivateMember(keys)).toBe(false);
    expect(String(response.headers['signature-input'])).toContain('tag="http-message-signatures-directory"');
    expect(String(response.headers['signature-input'])).toContain(`keyid="${owned!.keyid}"`);
    expect(await verifyDirectorySignature(response, keys[0]!, VERIFIER_HOST)).toBe('http-message-signatures-directory');
    // The signature covers the authority: served for one host, it does not verify for another.
    await expect(verifyDirectorySignature(response, keys[0]!, 'elsewhere.test')).rejects.toThrow();
  });

  it('the card names the DID, the agent and the directory; the DID document lists the key as did#keyid', async () => {
    const agent = await newAgent('Carded agent');
    const identity = await identityOf(agent.id);
    const keyid = identity.keys[0]!.keyid;
    const card = await t.app.inject({ method: 'GET', url: new URL(identity.signature_agent_card_url).pathname });
    expect(card.statusCode, card.body).toBe(200);
    expect(maxAge(card)).toBeLessThanOrEqual(60);
    expect(card.json()).toMatchObject({ did: agent.did, client_name: 'Carded agent', jwks_uri: identity.directory_url, keys: [{ kid: keyid }] });
    const document = await didDocument(agent.did);
    const method = document.verificationMethod.find((candidate) => candidate.id === `${agent.did}#${keyid}`);
    expect(method?.publicKeyJwk?.x).toBe(identity.keys[0]!.public_key_jwk.x);
    expect(document.authentication).toContain(`${agent.did}#${keyid}`);
    expect(document.service.map((service) => service.serviceEndpoint)).toContain(identity.directory_url);
  });
});

describe('rotation and revocation', () => {
  it('a rotation makes a new key current and keeps the old one published about ten minutes more', async () => {
    const agent = await newAgent('Rotating agent');
    const before = (await identityOf(agent.id)).keys[0]!.keyid;
    const rotated = await change(agent.id, 'rotate-key');
    const [current, retiring] = rotated.keys;
    expect(current).toMatchObject({ current: true, retires_at: null });
    expect(current!.keyid).not.toBe(before);
    expect(retiring).toMatchObject({ keyid: before, current: false });
    const ahead = Date.parse(retiring!.retires_at!) - Date.now();
    expect(ahead).toBeGreaterThan((SIGNING_KEY_ROTATION_OVERLAP_SECONDS - 30) * 1000);
    expect(ahead).toBeLessThanOrEqual(SIGNING_KEY_ROTATION_OVERLAP_SECONDS * 1000);
    expect(SIGNING_KEY_ROTATION_OVERLAP_SECONDS).toBe(600);
    expect((await directory(agent.id)).kids).toEqual([current!.keyid, before]);
    expect(await methodIds(agent.did)).toEqual(expect.arrayContaining([`${agent.did}#${current!.keyid}`, `${agent.did}#${before}`]));
    expect(await identityOf(agent.id)).toEqual(rotated);
  });

  it('a revocation takes the old keys out of the directory and the DID document at once', async () => {
    const agent = await newAgent('Revoking agent');
    const first = (await identityOf(agent.id)).keys[0]!.keyid;
    const second = (await change(agent.id, 'rotate-key')).keys[0]!.keyid;
    const revoked = await change(agent.id, 'revoke-key');
    expect(revoked.keys).toHaveLength(1);
    const third = revoked.keys[0]!.keyid;
    expect([first, second]).not.toContain(third);
    expect((await directory(agent.id)).kids).toEqual([third]);
    const ids = await methodIds(agent.did);
    expect(ids).toContain(`${agent.did}#${third}`);
    expect(ids).not.toContain(`${agent.did}#${first}`);
    expect(ids).not.toContain(`${agent.did}#${second}`);
  });
});

describe('suspension', () => {
  it("empties the directory and the DID document's signing keys at once, and reactivation brings the key back", async () => {
    const agent = await newAgent('Suspended agent');
    const keyid = (await identityOf(agent.id)).keys[0]!.keyid;
    expect((await api(owner, 'POST', `/agents/${agent.id}/suspend`)).statusCode).toBe(200);
    const emptied = await directory(agent.id);
    expect(emptied.response.json()).toEqual({ keys: [] });
    expect(emptied.response.headers.signature).toBeUndefined();
    expect(await methodIds(agent.did)).not.toContain(`${agent.did}#${keyid}`);
    // The owner still sees the key that would sign again.
    expect((await identityOf(agent.id)).keys.map((key) => key.keyid)).toEqual([keyid]);

    expect((await api(owner, 'POST', `/agents/${agent.id}/reactivate`)).statusCode).toBe(200);
    expect((await directory(agent.id)).kids).toEqual([keyid]);
    expect(await methodIds(agent.did)).toContain(`${agent.did}#${keyid}`);
  });
});

describe("the owner's signing rule", () => {
  const ruleOf = async (agentId: string) => (await prisma.agent.findUniqueOrThrow({ where: { id: agentId }, select: { requestSigning: true } })).requestSigning;

  it('changes to never and back to always', async () => {
    const agent = await newAgent('Ruled agent');
    const never = await api(owner, 'PATCH', `/agents/${agent.id}/identity`, { request_signing: 'never' });
    expect(never.statusCode, never.body).toBe(200);
    expect(never.json()).toMatchObject({ agent_id: agent.id, request_signing: 'never' });
    expect(await ruleOf(agent.id)).toBe('never');
    expect((await identityOf(agent.id)).request_signing).toBe('never');
    expect((await api(owner, 'PATCH', `/agents/${agent.id}/identity`, { request_signing: 'always' })).json()).toMatchObject({ request_signing: 'always' });
    expect(await ruleOf(agent.id)).toBe('always');
  });

  it('refuses a value it does not know with 400 VALIDATION_FAILED and changes nothing', async () => {
    const agent = await newAgent('Strict agent');
    for (const payload of [{ request_signing: 'sometimes' }, {}]) {
      const refused = await api(owner, 'PATCH', `/agents/${agent.id}/identity`, payload);
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', message: expect.stringContaining('always, paid_only, never') } });
    }
    expect(await ruleOf(agent.id)).toBe('always');
    expect(await prisma.auditEvent.count({ where: { subject: `agent:${agent.id}`, action: 'agent.request_signing_updated' } })).toBe(0);
  });
});

describe('who may', () => {
  it("answers 404 to another owner on every route, and changes nothing", async () => {
    const agent = await newAgent('Private agent');
    const before = await identityOf(agent.id);
    const calls: Array<[Method, string, object?]> = [
      ['GET', '/identity'],
      ['PATCH', '/identity', { request_signing: 'never' }],
      ['POST', '/identity/rotate-key'],
      ['POST', '/identity/revoke-key'],
    ];
    for (const [method, path, payload] of calls) {
      const response = await api(stranger, method, `/agents/${agent.id}${path}`, payload);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
      expect(response.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    expect(await identityOf(agent.id)).toEqual(before);
  });

  it('lets an API key with only the read scope read the identity, and refuses it every change with 403 API_KEY_SCOPE_MISSING', async () => {
    const agent = await newAgent('Guarded agent');
    const created = await api(owner, 'POST', '/api-keys', { name: 'reader', scopes: ['read'], expires_in_days: 30 });
    expect(created.statusCode, created.body).toBe(201);
    const reader = { headers: { authorization: `Bearer ${(created.json() as { key: string }).key}` } };
    const before = await identityOf(agent.id, reader);
    for (const [method, path, payload] of [['POST', '/identity/rotate-key'], ['POST', '/identity/revoke-key'], ['PATCH', '/identity', { request_signing: 'never' }]] as Array<[Method, string, object?]>) {
      const refused = await api(reader, method, `/agents/${agent.id}${path}`, payload);
      expect(refused.statusCode, `${method} ${path}`).toBe(403);
      expect(refused.json()).toMatchObject({ error: { code: 'API_KEY_SCOPE_MISSING', message: expect.stringContaining('agents:admin') } });
    }
    expect(await identityOf(agent.id)).toEqual(before);
  });
});

describe('the audit log', () => {
  it('records the rule change, the rotation and the revocation with the keyids, and no key material', async () => {
    const agent = await newAgent('Audited signer');
    const first = (await identityOf(agent.id)).keys[0]!.keyid;
    const secrets = await seedEncodings(agent.id);
    await api(owner, 'PATCH', `/agents/${agent.id}/identity`, { request_signing: 'paid_only' });
    // The same rule again changes nothing and records nothing.
    await api(owner, 'PATCH', `/agents/${agent.id}/identity`, { request_signing: 'paid_only' });
    const second = (await change(agent.id, 'rotate-key')).keys[0]!.keyid;
    secrets.push(...(await seedEncodings(agent.id)));
    const third = (await change(agent.id, 'revoke-key')).keys[0]!.keyid;
    secrets.push(...(await seedEncodings(agent.id)));

    const events = await prisma.auditEvent.findMany({
      where: { subject: `agent:${agent.id}`, action: { in: ['agent.request_signing_updated', 'agent.signing_key_rotated', 'agent.signing_key_revoked'] } },
      orderBy: { seq: 'asc' },
      select: { action: true, actor: true, ownerId: true, data: true },
    });
    expect(events.map((event) => event.action)).toEqual(['agent.request_signing_updated', 'agent.signing_key_rotated', 'agent.signing_key_revoked']);
    expect(events[0]).toMatchObject({ actor: `owner:${owner.userId}`, ownerId: owner.userId, data: { from: 'always', to: 'paid_only' } });
    expect(events[1]!.data).toMatchObject({ keyid: second, previous_keyid: first });
    expect(events[2]!.data).toMatchObject({ keyid: third, previous_keyid: second });
    for (const event of events) {
      const text = JSON.stringify(event.data);
      expect(hasPrivateMember(event.data)).toBe(false);
      expect(text).not.toMatch(/ciphertext|private/i);
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });
});
