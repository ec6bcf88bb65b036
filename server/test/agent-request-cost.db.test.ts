/**
 * What an agent API request costs the database, counted in statements (each a round trip; on
 * the embedded PGlite, each a turn of its one thread): an authenticated GET /balance reads the
 * key, its agent and the agent's wallet in one statement (authenticate-agent.ts) and answers
 * from that read; on PostgreSQL the agent's rate limit counts in the database beside it, once per
 * hit under a small limit and once per batch under a high one (rate-limit-counters.ts). These
 * tests fail if a statement is added to that path. They count; they never time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentBalanceView } from '@purser/core';
import { countStatements } from '@purser/db';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { createTestApp, type TestApp } from './support/test-app';
import { AGENT_API, createFundedAgent, ownerCall, type TestAgent } from './support/x402-fixtures';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.cleanup();
});

/** An app with an agent funded with 7 USDC, which has made its first call (its key's lastUsedAt written, its rate limit counting). */
async function appWithAgent(options: { agentRateLimitPerMinute?: number } = {}): Promise<{ t: TestApp; owner: SignedUpOwner; agent: TestAgent; postgres: boolean }> {
  const t = await createTestApp(options);
  apps.push(t);
  const owner = await signUpTestOwner(t.app, t.deps.db.prisma);
  expect((await ownerCall(t.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 100 })).statusCode).toBe(200);
  const agent = await createFundedAgent(t.app, owner, { fund: 7 });
  expect((await getBalance(t, agent)).statusCode).toBe(200);
  return { t, owner, agent, postgres: t.deps.db.kind === 'postgres' };
}

function getBalance(t: TestApp, agent: TestAgent) {
  return t.app.inject({ method: 'GET', url: `${AGENT_API}/balance`, headers: agent.headers });
}

/** The statements `calls` GET /balance requests send, each answered 200. */
async function statementsOf(t: TestApp, agent: TestAgent, calls = 1): Promise<string[]> {
  const { statements } = await countStatements(async () => {
    for (let n = 0; n < calls; n++) {
      const response = await getBalance(t, agent);
      expect(response.statusCode, response.body).toBe(200);
    }
  });
  return statements.map((sql) => sql.replace(/\s+/g, ' ').trim());
}

const CREDENTIALS = expect.stringMatching(/^SELECT .+ FROM purser_agent_request_credentials\(\$1\)$/);
const RATE_LIMIT_COUNT = /^INSERT INTO "rate_limit_counters"/;

describe('an authenticated GET /balance', () => {
  it('sends one statement, the read of its credentials, and answers the wallet that read found', async () => {
    const { t, agent, postgres } = await appWithAgent();
    const statements = await statementsOf(t, agent);

    // The default limit (120 a minute) is counted hit by hit: on PostgreSQL in the database,
    // on PGlite in this process's memory.
    expect(statements[0]).toEqual(CREDENTIALS);
    if (postgres) {
      expect(statements).toHaveLength(2);
      expect(statements[1]).toMatch(RATE_LIMIT_COUNT);
    } else {
      expect(statements).toHaveLength(1);
    }
    const balance = (await getBalance(t, agent)).json() as AgentBalanceView;
    expect(balance.balances.USDC).toMatchObject({ ledger: 7, ledger_exact: '7' });
    expect(balance.balances.USDT).toMatchObject({ ledger: 0, ledger_exact: '0' });
  });

  it('sends one statement per request under a high rate limit, counted in batches on PostgreSQL', async () => {
    // A batch is a hundredth of the limit: 100 hits here, claimed by the first call.
    const { t, agent } = await appWithAgent({ agentRateLimitPerMinute: 10_000 });
    expect(await statementsOf(t, agent, 20)).toEqual(Array.from({ length: 20 }, () => CREDENTIALS));
  });

  it('reads everything afresh on each request: a funding shows at once, a suspension and a rotated key are refused at once', async () => {
    const { t, agent, owner } = await appWithAgent({ agentRateLimitPerMinute: 10_000 });
    expect((await ownerCall(t.app, owner, 'POST', '/api/v1/wallet/fund-agent', { agent_id: agent.id, amount: 3 })).statusCode).toBe(200);
    expect(((await getBalance(t, agent)).json() as AgentBalanceView).balances.USDC).toMatchObject({ ledger: 10, ledger_exact: '10' });

    expect((await ownerCall(t.app, owner, 'POST', `/api/v1/agents/${agent.id}/suspend`)).statusCode).toBe(200);
    const suspended = await getBalance(t, agent);
    expect(suspended.statusCode).toBe(403);
    expect(suspended.json()).toMatchObject({ error: { code: 'AGENT_SUSPENDED' } });

    expect((await ownerCall(t.app, owner, 'POST', `/api/v1/agents/${agent.id}/reactivate`)).statusCode).toBe(200);
    expect((await getBalance(t, agent)).statusCode).toBe(200);
    const rotated = await ownerCall(t.app, owner, 'POST', `/api/v1/agents/${agent.id}/api-key`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const refused = await getBalance(t, agent);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
  });
});
