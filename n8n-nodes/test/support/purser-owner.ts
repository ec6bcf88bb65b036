/**
 * An owner of the started product as a client would make one: signed up with an invitation,
 * holding an owner API key (`psk_…`, what the Purser Owner API credential carries), with a
 * topped-up wallet and agents of its own. The calls go through the app's REST API.
 */
import { randomUUID } from 'node:crypto';
import type { Address } from 'viem';
import { expect } from 'vitest';
import { createInvitation, type PayingAgent, type TemporalTestEnv } from '@purser/server/testing';

export interface TestOwner {
  /** `Authorization: Bearer psk_…`. */
  headers: { authorization: string };
  apiKey: string;
  call<T = unknown>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: object): Promise<T>;
  createAgent(name: string, rules?: { approval_threshold?: number }): Promise<PayingAgent>;
  fund(agent: PayingAgent, amount: number): Promise<void>;
}

export async function signUpOwner(env: TemporalTestEnv): Promise<TestOwner> {
  const { app, deps } = env.testApp;
  const invitation = await createInvitation(deps.db.prisma, { maxUses: 1, expiresAt: new Date(Date.now() + 60_000) });
  const signup = await app.inject({
    method: 'POST',
    url: '/auth/v1/signup',
    payload: { email: `${randomUUID()}@example.test`, password: 'correct horse battery', data: { full_name: 'n8n Owner', invitation_code: invitation.code } },
  });
  expect(signup.statusCode, signup.body).toBe(200);
  const session = { authorization: `Bearer ${(signup.json() as { access_token: string }).access_token}` };
  const created = await app.inject({ method: 'POST', url: '/api/v1/api-keys', headers: session, payload: { name: 'n8n', scopes: ['read', 'payments:approve', 'wallet:fund', 'agents:admin', 'webhooks:admin'], expires_in_days: 30 } });
  expect(created.statusCode, created.body).toBeLessThan(300);
  const apiKey = (created.json() as { key: string }).key;
  expect(apiKey).toMatch(/^psk_/);
  const headers = { authorization: `Bearer ${apiKey}` };

  const call = async <T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: object): Promise<T> => {
    const response = await app.inject({ method, url: `/api/v1${path}`, headers, ...(payload ? { payload } : {}) });
    expect(response.statusCode, `${method} ${path}: ${response.body}`).toBeLessThan(300);
    return response.json() as T;
  };

  await call('POST', '/wallet/top-up', { amount: 1000 });
  return {
    headers,
    apiKey,
    call,
    async createAgent(name, rules = {}) {
      const created = await call<{
        agent: { id: string; did: string; agent_wallets: { wallet_address: string; evm_wallet_address: Address } };
        api_key: { key: string };
      }>('POST', '/agents', { name, max_transaction_amount: 25, max_daily_limit: 100 });
      if (rules.approval_threshold !== undefined) await call('PATCH', `/agents/${created.agent.id}/spending-rules`, { approval_threshold: rules.approval_threshold });
      const wallet = created.agent.agent_wallets;
      return { id: created.agent.id, did: created.agent.did, key: created.api_key.key, walletAddress: wallet.wallet_address, evmAddress: wallet.evm_wallet_address };
    },
    async fund(agent, amount) {
      // Funding mints the same test USDC to the agent's address, which x402 pays from.
      await env.runWorker(() => call('POST', '/wallet/fund-agent', { agent_id: agent.id, amount }));
    },
  };
}

/** The agent's own call to the agent API, as its code would make it. */
export async function agentCall(
  env: TemporalTestEnv,
  agent: Pick<PayingAgent, 'did' | 'key'>,
  method: 'GET' | 'POST',
  path: string,
  options: { payload?: object; idempotencyKey?: string } = {},
): Promise<{ statusCode: number; body: Record<string, unknown>; replayed: boolean }> {
  const response = await env.testApp.app.inject({
    method,
    url: `/functions/v1/mcp-server${path}`,
    headers: {
      'x-agent-did': agent.did,
      authorization: `Bearer ${agent.key}`,
      ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
    },
    ...(options.payload ? { payload: options.payload } : {}),
  });
  return { statusCode: response.statusCode, body: response.json() as Record<string, unknown>, replayed: response.headers['idempotent-replayed'] === 'true' };
}
