/**
 * Agents prove who they are to the sellers they call (docs/identity.md): a seller verifies every
 * request Purser sends for an agent with Cloudflare's `web-bot-auth` verifier, fetching the
 * agent's key directory over HTTP (support/verifying-seller.ts).
 * - a plain call is signed `web-bot-auth`; a paid call's first request and its retry carry the
 *   same key, the retry tagged `agent-payer-auth` (Visa TAP), and the payment records it;
 * - two agents sign with different keys; a tampered signature fails; a suspended agent's
 *   signatures stop verifying at once (its directory is empty);
 * - the MCP tools that call out are signed too; the owner's rule (always, only paid, never)
 *   decides which requests are; a host the owner's policies refuse gets a 403 SIGNATURE_REFUSED
 *   and is sent nothing.
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { signatureHeaders } from 'web-bot-auth';
import { signerFromJWK } from 'web-bot-auth/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentDetailView, X402UpstreamResponseView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { freePorts } from '../../scripts/lib.mjs';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { startChain } from '../src/services/chain/start-chain';
import { readAgentPrivateKey } from '../src/services/identity/agent-keys';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { startVerifyingSeller, VERIFYING_SELLER_PRICE, type SeenRequest, type VerifyingSeller } from './support/verifying-seller';
import { AGENT_API, agentCall, createFundedAgent, expectLedgerConsistent, intentReaches, ledgerBalance, ownerCall, type TestAgent } from './support/x402-fixtures';

let chain: EvmChain;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let appUrl: string;
let seller: VerifyingSeller;

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  const [port] = await freePorts(1);
  appUrl = `http://127.0.0.1:${port}`;
  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 10_000, publicUrl: appUrl });
  prisma = env.testApp.deps.db.prisma;
  await env.testApp.app.listen({ host: '127.0.0.1', port });
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 1_000 })).statusCode).toBe(200);
  seller = await startVerifyingSeller(chain);
}, 300_000);

afterAll(async () => {
  await seller?.close();
  await env?.close();
  await chain?.close();
});

/** The agent's current keyid, as its public directory lists it. */
async function publishedKeyids(agent: TestAgent): Promise<string[]> {
  const response = await fetch(`${appUrl}/.well-known/http-message-signatures-directory/agents/${agent.id}`);
  expect(response.headers.get('content-type')).toContain('application/http-message-signatures-directory+json');
  return ((await response.json()) as { keys: { kid: string }[] }).keys.map((key) => key.kid);
}

/** What the seller saw from now on, while `fn` runs. */
async function seenDuring(fn: () => Promise<void>): Promise<SeenRequest[]> {
  const from = seller.seen.length;
  await fn();
  return seller.seen.slice(from);
}

function replay(request: SeenRequest, changes: { url?: string; headers?: Record<string, string> } = {}): Request {
  return new Request(changes.url ?? request.url, { headers: { ...request.headers, ...changes.headers } });
}

describe('requests an agent sends through Purser are signed', () => {
  it('signs a plain call web-bot-auth with the key its directory lists, and two agents sign with different keys', async () => {
    const first = await createFundedAgent(env.testApp.app, owner, { fund: 1 });
    const second = await createFundedAgent(env.testApp.app, owner, { fund: 1 });
    const seen = await seenDuring(async () => {
      for (const agent of [first, second]) {
        const response = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${seller.url}/free` });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
      }
    });
    const [firstKey] = await publishedKeyids(first);
    const [secondKey] = await publishedKeyids(second);
    expect(firstKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secondKey).not.toBe(firstKey);
    expect(seen.map((request) => request.identity)).toEqual([
      { keyid: firstKey, tag: 'web-bot-auth', directory: `${appUrl}/.well-known/http-message-signatures-directory/agents/${first.id}`, nonce: expect.any(String), form: 'dictionary' },
      { keyid: secondKey, tag: 'web-bot-auth', directory: `${appUrl}/.well-known/http-message-signatures-directory/agents/${second.id}`, nonce: expect.any(String), form: 'dictionary' },
    ]);
    // A fresh nonce each time, and a lifetime TAP accepts.
    const input = seen[0]!.headers['signature-input']!;
    expect(input).toContain('("@authority" "@path" "signature-agent";key="sig1")');
    const created = Number(/;created=(\d+)/.exec(input)![1]);
    const expires = Number(/;expires=(\d+)/.exec(input)![1]);
    expect(expires - created).toBeGreaterThan(0);
    expect(expires - created).toBeLessThanOrEqual(480);
    expect(seen[0]!.identity).not.toEqual(seen[1]!.identity);
  });

  it("signs a paid call's first request and its retry with the same key, the retry agent-payer-auth, and the payment records it", async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = { ledger: await ledgerBalance(prisma, agent.id), onChain: await chain.usdcBalanceOf(agent.address) };
    let intentId = '';
    const seen = await seenDuring(async () => {
      await env.runWorker(async () => {
        const response = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${seller.url}/paid` });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        intentId = (response.body as unknown as X402UpstreamResponseView).payment!.intent_id;
        await intentReaches(prisma, intentId, 'settled');
      });
    });
    const [keyid] = await publishedKeyids(agent);
    expect(seen.map(({ paid, identity }) => ({ paid, keyid: identity && 'keyid' in identity ? identity.keyid : identity, tag: identity && 'tag' in identity ? identity.tag : null }))).toEqual([
      { paid: false, keyid, tag: 'web-bot-auth' },
      { paid: true, keyid, tag: 'agent-payer-auth' },
    ]);
    expect(await ledgerBalance(prisma, agent.id)).toBe(before.ledger - VERIFYING_SELLER_PRICE);
    expect(await chain.usdcBalanceOf(agent.address)).toBe(before.onChain - VERIFYING_SELLER_PRICE);
    await expectLedgerConsistent(prisma);

    const detail = await ownerCall(env.testApp.app, owner, 'GET', `/api/v1/intents/${intentId}/detail`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect((detail.json() as PaymentDetailView).rail?.requestSignature).toEqual({
      keyid,
      tag: 'agent-payer-auth',
      host: new URL(seller.url).host,
      signed_at: expect.any(String),
      expires_at: expect.any(String),
      directory_url: `${appUrl}/.well-known/http-message-signatures-directory/agents/${agent.id}`,
    });
    const key = await prisma.agentKey.findFirstOrThrow({ where: { agentId: agent.id, purpose: 'http_signature', revokedAt: null }, select: { lastSignedHost: true, lastSignedAt: true } });
    expect(key.lastSignedHost).toBe(new URL(seller.url).host);
    expect(key.lastSignedAt).not.toBeNull();
  });

  it("serves a verifier still on web-bot-auth 0.1.3's older plain-string Signature-Agent: its own keyid of the agent's key is the directory's", async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 1 });
    const [keyid] = await publishedKeyids(agent);
    // Signed as that package signs (the older form), with the agent's key read from custody.
    const { publicKey } = await prisma.agentKey.findFirstOrThrow({ where: { agentId: agent.id, purpose: 'http_signature', revokedAt: null }, select: { publicKey: true } });
    const seed = await readAgentPrivateKey(prisma, env.testApp.deps.masterKey, agent.id, 'http_signature');
    const signer = await signerFromJWK({ kty: 'OKP', crv: 'Ed25519', x: publicKey, d: seed.toString('base64url') });
    seed.fill(0);
    expect(signer.keyid).toBe(keyid);
    const directory = `${appUrl}/.well-known/http-message-signatures-directory/agents/${agent.id}`;
    const request = new Request(`${seller.url}/free`, { headers: { 'signature-agent': JSON.stringify(directory) } });
    const created = new Date();
    const signed = await signatureHeaders(request, signer, { created, expires: new Date(created.getTime() + 300_000) });
    request.headers.set('signature', signed.Signature);
    request.headers.set('signature-input', signed['Signature-Input']);
    expect(await seller.verify(request)).toMatchObject({ keyid, tag: 'web-bot-auth', directory, form: 'string' });
  });

  it('fails a tampered signature, and stops verifying the moment the agent is suspended', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 1 });
    const [signed] = await seenDuring(async () => {
      expect((await agentCall(appUrl, agent, 'POST', '/x402/proxy', { url: `${seller.url}/free` })).status).toBe(200);
    });
    expect(signed!.identity).toMatchObject({ tag: 'web-bot-auth' });
    // The same request verifies again; changed in any covered part, or its signature, it does not.
    expect(await seller.verify(replay(signed!))).toMatchObject({ tag: 'web-bot-auth' });
    expect(await seller.verify(replay(signed!, { url: signed!.url.replace('/free', '/paid') }))).toEqual({ error: expect.stringContaining('VerificationFailed') });
    expect(await seller.verify(replay(signed!, { url: signed!.url.replace('127.0.0.1', 'localhost') }))).toEqual({ error: expect.stringContaining('VerificationFailed') });
    const signature = signed!.headers.signature!;
    const flipped = signature.replace(/:(.)/, (_, first: string) => `:${first === 'A' ? 'B' : 'A'}`);
    expect(await seller.verify(replay(signed!, { headers: { signature: flipped } }))).toEqual({ error: expect.stringContaining('VerificationFailed') });
    const otherDirectory = signed!.headers['signature-agent']!.replace(agent.id, '00000000-0000-4000-8000-000000000000');
    expect(await seller.verify(replay(signed!, { headers: { 'signature-agent': otherDirectory } }))).toHaveProperty('error');

    const suspended = await ownerCall(env.testApp.app, owner, 'POST', `/api/v1/agents/${agent.id}/suspend`);
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(await publishedKeyids(agent)).toEqual([]);
    expect(await seller.verify(replay(signed!))).toEqual({ error: expect.stringContaining('is not in the directory') });
    const resolved = await fetch(`${appUrl}/1.0/identifiers/${encodeURIComponent(agent.did)}`);
    expect(JSON.stringify(await resolved.json())).not.toContain(signed!.identity && 'keyid' in signed!.identity ? signed!.identity.keyid : 'no keyid');
  });

  it('signs the MCP tools that call out', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 1 });
    const [keyid] = await publishedKeyids(agent);
    const mcp = new Client({ name: 'web-bot-auth-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${appUrl}${AGENT_API}/mcp`), { requestInit: { headers: agent.headers } }));
    try {
      const seen = await seenDuring(async () => {
        for (const name of ['x402_fetch', 'x402_requirements']) {
          const result = (await mcp.callTool({ name, arguments: { url: `${seller.url}/free` } })) as CallToolResult;
          expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
        }
      });
      expect(seen.map((request) => request.identity)).toEqual(Array.from({ length: 2 }, () => expect.objectContaining({ keyid, tag: 'web-bot-auth' })));
    } finally {
      await mcp.close();
    }
  });

  it("follows the owner's rule: only the paid retry when paid_only, nothing when never", async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    await prisma.agent.update({ where: { id: agent.id }, data: { requestSigning: 'paid_only' } });
    const paidOnly = await seenDuring(async () => {
      await env.runWorker(async () => {
        const response = await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${seller.url}/paid` });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        await intentReaches(prisma, (response.body as unknown as X402UpstreamResponseView).payment!.intent_id, 'settled');
      });
    });
    expect(paidOnly.map(({ paid, identity }) => ({ paid, tag: identity && 'tag' in identity ? identity.tag : identity }))).toEqual([
      { paid: false, tag: null },
      { paid: true, tag: 'agent-payer-auth' },
    ]);

    await prisma.agent.update({ where: { id: agent.id }, data: { requestSigning: 'never' } });
    const never = await seenDuring(async () => {
      expect((await agentCall(appUrl, agent, 'POST', '/x402/fetch', { url: `${seller.url}/free` })).status).toBe(200);
    });
    expect(never).toEqual([expect.objectContaining({ identity: null })]);
    expect(never[0]!.headers).not.toHaveProperty('signature');
    await expectLedgerConsistent(prisma);
  });

  it('refuses, with 403 SIGNATURE_REFUSED, a host the owner blocks, sending and signing nothing', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
    const before = await ledgerBalance(prisma, agent.id);
    const policy = await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/policies', { name: 'No local sellers', agentId: agent.id, rules: { blockedMerchants: ['127.0.0.1'] } });
    expect(policy.statusCode, policy.body).toBe(201);
    const seen = await seenDuring(async () => {
      for (const path of ['/x402/fetch', '/x402/proxy', '/x402/requirements']) {
        const response = await agentCall(appUrl, agent, 'POST', path, { url: `${seller.url}/paid` });
        expect(response.status, path).toBe(403);
        expect(response.body.error).toEqual({ code: 'SIGNATURE_REFUSED', message: expect.stringContaining('blocks the host 127.0.0.1') });
      }
    });
    expect(seen).toEqual([]);
    expect(await prisma.paymentIntent.count({ where: { agentId: agent.id } })).toBe(0);
    expect(await ledgerBalance(prisma, agent.id)).toBe(before);
    await expectLedgerConsistent(prisma);
  });
});
