/**
 * What one paid call costs the database, counted (never timed): every statement an agent's
 * `/x402/fetch` sends, from its authentication to its answer, on the second call of an agent (the
 * first decrypts and caches its keys), paying the sandbox's weather API on the sandbox chain.
 *
 * - The front, from the request's own reads to the signed payment (the intent, the gate's inputs
 *   and decision, the hold, the rail operation, the outbox row, the audit entries), is at most six
 *   round trips: the agent and its wallet read, then BEGIN, the locks and inputs, the writes, COMMIT.
 * - The whole call after authentication is pinned at what it sends today, so a statement added
 *   anywhere on the path fails here with the list of what was sent.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { countStatements, type PrismaClient } from '@purser/db';
import type { X402UpstreamResponseView } from '@purser/core';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { startChain } from '../src/services/chain/start-chain';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { AGENT_API, createFundedAgent, expectLedgerConsistent, intentReaches, ownerCall, type TestAgent } from './support/x402-fixtures';

/**
 * The statements of one paid call after its authentication (which agent-request-cost.db.test.ts
 * counts with every agent request's): the signer's read, the front, then the seller's answer kept
 * and its settlement confirmed, and the outbox row removed once the workflow started (that one
 * after the answer, so sometimes outside the count).
 */
const WHOLE_CALL = 10;
/** The front's round trips: the ceiling. */
const FRONT = 6;

let chain: EvmChain;
let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let appUrl: string;

beforeAll(async () => {
  chain = await startChain({ sandboxPort: 0 });
  env = await startTemporalTestEnv({ chain, agentRateLimitPerMinute: 10_000 });
  prisma = env.testApp.deps.db.prisma;
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 100 })).statusCode).toBe(200);
}, 300_000);

afterAll(async () => {
  await env?.close();
  await chain?.close();
});

async function paidCall(agent: TestAgent, city: string) {
  const { result, statements } = await countStatements(() =>
    env.testApp.app.inject({
      method: 'POST',
      url: `${AGENT_API}/x402/fetch`,
      headers: { ...agent.headers, 'content-type': 'application/json' },
      payload: { url: `${appUrl}/sandbox/paid/weather?city=${city}` },
    }),
  );
  expect(result.statusCode, result.body).toBe(200);
  const view = result.json<X402UpstreamResponseView>();
  expect(view.payment).toMatchObject({ status: 'processing', transaction_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
  // On PGlite the adapter runs the deferred constraints' checks just before COMMIT, in this
  // process's own session (adapters.ts): a statement, not a round trip, left out here.
  const sent = statements.map((sql) => sql.replace(/\s+/g, ' ').trim()).filter((sql) => sql !== 'SET CONSTRAINTS ALL IMMEDIATE');
  return { intentId: view.payment!.intent_id, statements: sent };
}

it('pays in a handful of statements: the front in at most six round trips, the rest of the call pinned', async () => {
  const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
  await env.runWorker(async () => {
    const first = await paidCall(agent, 'Porto');
    await intentReaches(prisma, first.intentId, 'settled');
    const { intentId, statements } = await paidCall(agent, 'Lisbon');
    const listing = statements.map((sql, index) => `${index + 1}: ${sql.slice(0, 140)}`).join('\n');

    // The front: from the read of the agent and its wallet (just before BEGIN) to COMMIT.
    const begin = statements.indexOf('BEGIN');
    const commit = statements.indexOf('COMMIT', begin);
    expect(statements.slice(begin, commit + 1).map((sql) => /purser_pay_front_\w+|^BEGIN$|^COMMIT$/.exec(sql)?.[0] ?? sql), listing).toEqual([
      'BEGIN',
      'purser_pay_front_inputs',
      'purser_pay_front_authorized',
      'COMMIT',
    ]);
    expect(statements[begin - 1], listing).toMatch(/FROM "public"."agents"/);
    expect(commit + 1 - (begin - 1), listing).toBeLessThanOrEqual(FRONT);
    const signer = statements.findIndex((sql) => sql.includes('"request_signing"'));
    expect(signer, listing).toBeGreaterThanOrEqual(0);
    expect(statements.length - signer, listing).toBeLessThanOrEqual(WHOLE_CALL);

    await intentReaches(prisma, intentId, 'settled');
    await expectLedgerConsistent(prisma);
  });
});
