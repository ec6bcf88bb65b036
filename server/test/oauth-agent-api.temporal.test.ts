/**
 * OAuth access tokens on the agent API and the MCP endpoint (issue 42): a token acts as the agent
 * its owner chose, only on the resource it was issued for, only within its scopes and its
 * connection's cap, and not at all once the connection is revoked or the agent suspended. Every
 * 401 says where to get a token (RFC 9728 `resource_metadata`), a 403 for a missing scope which
 * scopes to ask for. The cap is the gate's: a payment that would pass it is refused like a
 * spending rule, on both fronts (POST /payment, and a paid call authorised in the agent's own
 * request), and a refused call moves nothing. The sandbox chain and a real Temporal dev server
 * run the payments; every test that moves money checks the ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { X402UpstreamResponseView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { startChain } from '../src/services/chain/start-chain';
import { listAgentConnections } from '../src/services/oauth/list-agent-connections';
import { revokeConnection } from '../src/services/oauth/revoke-connection';
import { connectClient, type Connected } from './support/oauth-fixtures';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { AGENT_API, createFundedAgent, expectLedgerConsistent, intentReaches, ledgerBalance, ownerCall, type TestAgent } from './support/x402-fixtures';

let chain: EvmChain;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let appUrl: string;
let publicUrl: string;

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 10_000 });
  prisma = env.testApp.deps.db.prisma;
  publicUrl = env.testApp.deps.publicUrl;
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 1_000 })).statusCode).toBe(200);
}, 300_000);

afterAll(async () => {
  await env?.close();
  await chain?.close();
});

const resourceUrl = (resource: 'agentApi' | 'mcp') => `${publicUrl}${AGENT_API}${resource === 'mcp' ? '/mcp' : ''}`;
const metadataUrl = (resource: 'agentApi' | 'mcp') => `${publicUrl}/.well-known/oauth-protected-resource${AGENT_API}${resource === 'mcp' ? '/mcp' : ''}`;

async function connectedAgent(options: { fund: number; scopes?: ('read' | 'pay' | 'fetch')[]; capUnits?: bigint; resource?: 'agentApi' | 'mcp' }): Promise<{ agent: TestAgent; connection: Connected }> {
  const agent = await createFundedAgent(env.testApp.app, owner, { fund: options.fund, maxTransaction: 100, dailyLimit: 1_000 });
  const connection = await connectClient(env.testApp, { userId: owner.userId, agentId: agent.id, did: agent.did }, {
    scopes: options.scopes,
    capUnits: options.capUnits,
    resource: resourceUrl(options.resource ?? 'agentApi'),
  });
  return { agent, connection };
}

function withToken(token: string, method: 'GET' | 'POST', path: string, payload?: unknown, headers: Record<string, string> = {}) {
  return env.testApp.app.inject({
    method,
    url: `${AGENT_API}${path}`,
    headers: { authorization: `Bearer ${token}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

function mcp(token: string, message: object) {
  return withToken(token, 'POST', '/mcp', { jsonrpc: '2.0', id: 1, ...message }, { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' });
}

const intentsOf = (agentId: string) => prisma.paymentIntent.count({ where: { agentId } });

describe('authentication with an access token', () => {
  it('acts as the chosen agent on its own resource without X-Agent-DID; a token for the other resource is refused with invalid_token', async () => {
    const { agent, connection } = await connectedAgent({ fund: 3, resource: 'agentApi' });
    const balance = await withToken(connection.tokens.access_token, 'GET', '/balance');
    expect(balance.statusCode, balance.body).toBe(200);
    const info = await withToken(connection.tokens.access_token, 'GET', '/info');
    expect(info.json()).toMatchObject({ did: agent.did });

    const onMcp = await mcp(connection.tokens.access_token, { method: 'tools/list' });
    expect(onMcp.statusCode).toBe(401);
    expect(onMcp.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: 'The access token was issued for another resource' } });
    expect(onMcp.headers['www-authenticate']).toBe(
      `Bearer error="invalid_token", error_description="The access token was issued for another resource", resource_metadata="${metadataUrl('mcp')}"`,
    );
  });

  it('answers a call without credentials 401 with the resource metadata of the resource called', async () => {
    const rest = await env.testApp.app.inject({ method: 'GET', url: `${AGENT_API}/balance` });
    expect(rest.statusCode).toBe(401);
    expect(rest.headers['www-authenticate']).toBe(`Bearer resource_metadata="${metadataUrl('agentApi')}"`);
    const onMcp = await env.testApp.app.inject({ method: 'POST', url: `${AGENT_API}/mcp`, payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(onMcp.statusCode).toBe(401);
    expect(onMcp.headers['www-authenticate']).toBe(`Bearer resource_metadata="${metadataUrl('mcp')}"`);
    // The metadata it names is served, and names this deployment's authorization server.
    const metadata = await fetch(`${appUrl}/.well-known/oauth-protected-resource${AGENT_API}/mcp`);
    expect(await metadata.json()).toMatchObject({ resource: resourceUrl('mcp'), authorization_servers: [publicUrl] });
  });

  it('refuses an unknown token, and a token beside another agent’s DID', async () => {
    const { connection } = await connectedAgent({ fund: 1 });
    const unknown = await withToken(`purser_at_${'x'.repeat(43)}`, 'GET', '/balance');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.headers['www-authenticate']).toContain('error="invalid_token"');
    const other = await createFundedAgent(env.testApp.app, owner, { fund: 1 });
    const mismatched = await withToken(connection.tokens.access_token, 'GET', '/balance', undefined, { 'x-agent-did': other.did });
    expect(mismatched.statusCode).toBe(401);
  });

  it('ends at once when the connection is revoked, and answers 403 AGENT_SUSPENDED while the agent is suspended', async () => {
    const { agent, connection } = await connectedAgent({ fund: 1 });
    const token = connection.tokens.access_token;
    expect((await ownerCall(env.testApp.app, owner, 'POST', `/api/v1/agents/${agent.id}/suspend`, {})).statusCode).toBe(200);
    const suspended = await withToken(token, 'GET', '/balance');
    expect(suspended.statusCode).toBe(403);
    expect(suspended.json()).toMatchObject({ error: { code: 'AGENT_SUSPENDED' } });
    expect((await ownerCall(env.testApp.app, owner, 'POST', `/api/v1/agents/${agent.id}/reactivate`, {})).statusCode).toBe(200);
    expect((await withToken(token, 'GET', '/balance')).statusCode).toBe(200);

    await revokeConnection(env.testApp.deps, owner.userId, connection.connectionId);
    const revoked = await withToken(token, 'GET', '/balance');
    expect(revoked.statusCode).toBe(401);
    expect(revoked.headers['www-authenticate']).toContain('error="invalid_token", error_description="The access token was revoked"');
    // The agent's API key is untouched: scripts keep working.
    const byKey = await env.testApp.app.inject({ method: 'GET', url: `${AGENT_API}/balance`, headers: agent.headers });
    expect(byKey.statusCode).toBe(200);
  });
});

describe('scopes', () => {
  it('refuses a REST call outside the token’s scopes with 403 insufficient_scope, before anything is created', async () => {
    const { agent, connection } = await connectedAgent({ fund: 5, scopes: ['read'] });
    const token = connection.tokens.access_token;
    expect((await withToken(token, 'GET', '/transactions')).statusCode).toBe(200);
    const paid = await withToken(token, 'POST', '/payment', { amount: 1, to_address: 'merchant-1' });
    expect(paid.statusCode).toBe(403);
    expect(paid.json()).toMatchObject({ error: { code: 'INSUFFICIENT_SCOPE' } });
    expect(paid.headers['www-authenticate']).toMatch(/^Bearer error="insufficient_scope", error_description="[^"]+", scope="read pay", resource_metadata="/);
    expect(paid.json()).toMatchObject({ error: { message: expect.stringContaining("the pay scope") } });
    const fetched = await withToken(token, 'POST', '/x402/fetch', { url: `${appUrl}/sandbox/paid/weather?city=Porto` });
    expect(fetched.statusCode).toBe(403);
    expect(fetched.headers['www-authenticate']).toContain('scope="read fetch"');
    expect(await intentsOf(agent.id)).toBe(0);
    expect(await ledgerBalance(prisma, agent.id)).toBe(5_000_000n);
  });

  it('lists every MCP tool, and refuses a tools/call outside the scopes with 403 for the whole POST', async () => {
    const { agent, connection } = await connectedAgent({ fund: 5, scopes: ['read'], resource: 'mcp' });
    const token = connection.tokens.access_token;
    const listed = await mcp(token, { method: 'tools/list' });
    expect(listed.statusCode, listed.body).toBe(200);
    expect((listed.json() as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name)).toContain('make_payment');

    const balance = await mcp(token, { method: 'tools/call', params: { name: 'get_balance', arguments: {} } });
    expect(balance.statusCode).toBe(200);
    const payment = await mcp(token, { method: 'tools/call', params: { name: 'make_payment', arguments: { amount: 1, to_address: 'merchant-1' } } });
    expect(payment.statusCode).toBe(403);
    expect(payment.headers['www-authenticate']).toContain('error="insufficient_scope"');
    expect(payment.headers['www-authenticate']).toContain('scope="read pay"');
    expect(payment.headers['www-authenticate']).toContain(`resource_metadata="${metadataUrl('mcp')}"`);
    // In a batch, one call outside the scopes refuses the batch: the read beside it does not run either.
    const batch = await withToken(
      token,
      'POST',
      '/mcp',
      [
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_balance', arguments: {} } },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x402_fetch', arguments: { url: `${appUrl}/sandbox/paid/weather?city=Faro` } } },
      ],
      { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    );
    expect(batch.statusCode).toBe(403);
    expect(await intentsOf(agent.id)).toBe(0);
  });

  it('lets an API key call every route, as before', async () => {
    const agent = await createFundedAgent(env.testApp.app, owner, { fund: 1 });
    const info = await env.testApp.app.inject({ method: 'GET', url: `${AGENT_API}/info`, headers: agent.headers });
    expect(info.statusCode).toBe(200);
  });
});

describe("the connection's spending cap", () => {
  it('lets payments through up to the cap, exactly, and refuses the one that would pass it with CONNECTION_CAP_EXCEEDED, moving nothing', async () => {
    const { agent, connection } = await connectedAgent({ fund: 20, capUnits: 5_000_000n });
    const token = connection.tokens.access_token;
    await env.runWorker(async () => {
      const first = await withToken(token, 'POST', '/payment', { amount: 3, to_address: 'merchant-1' });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({ status: 'settled', amount: 3 });

      const above = await withToken(token, 'POST', '/payment', { amount: 2.000001, to_address: 'merchant-1' });
      expect(above.statusCode, above.body).toBe(422);
      const refusal = above.json() as { error: { code: string; message: string } };
      expect(refusal.error.code).toBe('POLICY_VIOLATION');
      expect(refusal.error.message).toContain('CONNECTION_CAP_EXCEEDED');
      expect(refusal.error.message).toContain("This connection's spending cap is $5.00; $3.00 was spent through it");
      expect(await ledgerBalance(prisma, agent.id)).toBe(17_000_000n);

      // The agent's own key is not bound by the connection's cap.
      const byKey = await env.testApp.app.inject({ method: 'POST', url: `${AGENT_API}/payment`, headers: { ...agent.headers, 'content-type': 'application/json' }, payload: { amount: 4, to_address: 'merchant-1' } });
      expect(byKey.statusCode, byKey.body).toBe(200);

      const exactly = await withToken(token, 'POST', '/payment', { amount: 2, to_address: 'merchant-1' });
      expect(exactly.statusCode, exactly.body).toBe(200);
      const after = await withToken(token, 'POST', '/payment', { amount: 0.000001, to_address: 'merchant-1' });
      expect(after.statusCode).toBe(422);
    });
    expect(await ledgerBalance(prisma, agent.id)).toBe(11_000_000n);
    const [listed] = (await listAgentConnections(env.testApp.deps, owner.userId, agent.id)).connections;
    expect(listed).toMatchObject({ id: connection.connectionId, cap: 5, spent: 5, spentExact: '5' });
    const intents = await prisma.paymentIntent.findMany({ where: { agentId: agent.id }, select: { oauthConnectionId: true, status: true } });
    expect(intents.filter((intent) => intent.oauthConnectionId === connection.connectionId).map((intent) => intent.status).sort()).toEqual(['blocked', 'blocked', 'settled', 'settled']);
    expect(intents.filter((intent) => intent.oauthConnectionId === null)).toEqual([{ oauthConnectionId: null, status: 'settled' }]);
    await expectLedgerConsistent(prisma);
  });

  it('holds a paid call authorised in the agent’s request to the cap too, and counts what it paid', async () => {
    // The weather costs $0.01: a cap of $0.015 lets one call through.
    const { agent, connection } = await connectedAgent({ fund: 1, capUnits: 15_000n });
    const token = connection.tokens.access_token;
    await env.runWorker(async () => {
      const first = await withToken(token, 'POST', '/x402/fetch', { url: `${appUrl}/sandbox/paid/weather?city=Porto` });
      expect(first.statusCode, first.body).toBe(200);
      const view = first.json<X402UpstreamResponseView>();
      expect(view.status).toBe(200);
      await intentReaches(prisma, view.payment!.intent_id, 'settled');

      const second = await withToken(token, 'POST', '/x402/fetch', { url: `${appUrl}/sandbox/paid/weather?city=Lisbon` });
      expect(second.statusCode, second.body).toBe(422);
      expect(second.json()).toMatchObject({ error: { code: 'POLICY_VIOLATION', message: expect.stringContaining('CONNECTION_CAP_EXCEEDED') } });
    });
    expect(await ledgerBalance(prisma, agent.id)).toBe(990_000n);
    const operations = await prisma.railOperation.count({ where: { paymentIntent: { agentId: agent.id } } });
    expect(operations).toBe(1);
    await expectLedgerConsistent(prisma);
  });
});
