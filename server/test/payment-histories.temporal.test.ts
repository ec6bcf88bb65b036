/**
 * Every way a payment can go, as Temporal records it: each scenario runs on the real server
 * steps, its workflow history is fetched, and the history must replay on today's workflow code
 * without a nondeterminism error (a change to the workflow that would break workflows in flight
 * fails here). With RECORD_PAYMENT_HISTORIES=1 the histories are also written to
 * workflows/test/histories/, where the workflows' replay test keeps them: that is how the
 * histories of a version of the workflow are kept once the code changes (workflows/test/histories/README.md).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntentView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { paymentWorkflowId, WORKFLOWS_PATH, type PaymentProgress } from '@purser/workflows';
import { verifyLedger } from '../src/services/ledger/verify-ledger';
import { ownerIntents } from './support/owner-intents';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';

const HISTORIES_DIR = fileURLToPath(new URL('../../workflows/test/histories/', import.meta.url));

let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
const { api, createFundedAgent, createIntent, getIntent } = ownerIntents(() => env.testApp.app, () => owner);
const recorded: { scenario: string; status: string; history: Awaited<ReturnType<ReturnType<TemporalTestEnv['client']['workflow']['getHandle']>['fetchHistory']>> }[] = [];

beforeAll(async () => {
  env = await startTemporalTestEnv();
  prisma = env.testApp.deps.db.prisma;
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await api('POST', '/api/v1/wallet/top-up', { amount: 100_000 })).statusCode).toBe(200);
}, 300_000);

afterAll(async () => {
  await env?.close();
});

/** Runs `pay` (which answers the intent) with a worker, waits for the end, and records the history. */
async function scenario(name: string, expected: IntentView['status'], pay: () => Promise<IntentView>, options?: { sandboxSettlementDelayMs?: number }) {
  const intent = await env.runWorker(async () => {
    const started = await pay();
    expect((await workflowResult(started.id)).status).toBe(expected);
    return started;
  }, options);
  const history = await env.client.workflow.getHandle(paymentWorkflowId(intent.id)).fetchHistory();
  recorded.push({ scenario: name, status: expected, history });
  expect((await getIntent(intent.id)).status).toBe(expected);
  expect((await verifyLedger(prisma)).problems).toEqual([]);
}

describe('payment histories', () => {
  it('settles a payment that needs nothing else', async () => {
    const agentId = await createFundedAgent({ fund: 100 });
    await scenario('settled', 'settled', () => createIntent({ agentId, amount: 5 }));
  });

  it('settles a card payment whose rail answers pending first', async () => {
    const agentId = await createFundedAgent({ fund: 100 });
    await scenario('card-settled', 'settled', () => createIntent({ agentId, amount: 5, rail: 'card', merchant: 'Card Merchant' }), { sandboxSettlementDelayMs: 500 });
  });

  it('settles a payment the owner approves', async () => {
    const agentId = await createFundedAgent({ fund: 500, approvalThreshold: 50 });
    await scenario('approved', 'settled', async () => {
      const intent = await createIntent({ agentId, amount: 60 });
      await waitForStatus(intent.id, 'pending_approval');
      expect((await api('POST', `/api/v1/intents/${intent.id}/approve`, { reason: 'fine' })).statusCode).toBe(200);
      return intent;
    });
  });

  it('ends a payment the owner rejects', async () => {
    const agentId = await createFundedAgent({ fund: 500, approvalThreshold: 50 });
    await scenario('rejected', 'rejected', async () => {
      const intent = await createIntent({ agentId, amount: 75 });
      await waitForStatus(intent.id, 'pending_approval');
      expect((await api('POST', `/api/v1/intents/${intent.id}/reject`, { reason: 'no' })).statusCode).toBe(200);
      return intent;
    });
  });

  it('ends a payment cancelled while it waits for approval', async () => {
    const agentId = await createFundedAgent({ fund: 100, approvalThreshold: 1 });
    await scenario('cancelled-waiting', 'cancelled', async () => {
      const intent = await createIntent({ agentId, amount: 5 });
      await waitForStatus(intent.id, 'pending_approval');
      expect((await api('POST', `/api/v1/intents/${intent.id}/cancel`, {})).statusCode).toBe(200);
      return intent;
    });
  });

  it('blocks a waiting payment once a policy attached meanwhile forbids it', async () => {
    const agentId = await createFundedAgent({ fund: 500, approvalThreshold: 50 });
    await scenario('policy-changed-waiting', 'blocked', async () => {
      const intent = await createIntent({ agentId, amount: 60, category: 'gambling' });
      await waitForStatus(intent.id, 'pending_approval');
      const attached = await api('POST', `/api/v1/intents/${intent.id}/policy`, { policy: { allowedCategories: ['compute'] } });
      expect(attached.statusCode, attached.body).toBe(200);
      return intent;
    });
  });

  it('blocks a payment its policy forbids', async () => {
    const agentId = await createFundedAgent({ fund: 100 });
    await scenario('blocked', 'blocked', () => createIntent({ agentId, amount: 5, category: 'gambling', policy: { allowedCategories: ['compute'] } }));
  });

  it('fails a payment no rail can carry', async () => {
    const agentId = await createFundedAgent({ fund: 20 });
    await scenario('no-rail', 'failed', () => createIntent({ agentId, amount: 2, rail: 'x402-base' }));
  });

  it('fails a payment the balance does not cover', async () => {
    const agentId = await createFundedAgent({ fund: 1 });
    await scenario('insufficient-funds', 'failed', () => createIntent({ agentId, amount: 5 }));
  });

  it('fails a payment of an agent suspended before its workflow ran', async () => {
    const agentId = await createFundedAgent({ fund: 100 });
    const intent = await createIntent({ agentId, amount: 5 });
    expect((await api('POST', `/api/v1/agents/${agentId}/suspend`, {})).statusCode).toBe(200);
    await scenario('suspended', 'failed', async () => intent);
  });

  it('releases the held funds when the card network declines', async () => {
    const agentId = await createFundedAgent({ fund: 50 });
    await scenario('declined', 'failed', () => createIntent({ agentId, amount: 5, rail: 'card', metadata: { sandbox_outcome: 'insufficient_funds' } }), {
      sandboxSettlementDelayMs: 100,
    });
  });

  it('replays every history on the workflow code of today', async () => {
    expect(recorded.map((entry) => entry.scenario)).toHaveLength(11);
    const histories = recorded.map(({ scenario: name, history }) => ({ workflowId: `replay-${name}`, history }));
    const failures: string[] = [];
    for await (const result of Worker.runReplayHistories({ workflowsPath: WORKFLOWS_PATH }, histories)) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
    if (process.env.RECORD_PAYMENT_HISTORIES === '1') {
      mkdirSync(HISTORIES_DIR, { recursive: true });
      for (const { scenario: name, status, history } of recorded) {
        writeFileSync(`${HISTORIES_DIR}${name}.json`, `${JSON.stringify({ scenario: name, status, history: JSON.parse(historyToJSON(history)) }, null, 1)}\n`);
      }
    }
  }, 300_000);
});

// ---------------------------------------------------------------- helpers

function workflowResult(intentId: string): Promise<PaymentProgress> {
  return env.client.workflow.getHandle(paymentWorkflowId(intentId)).result() as Promise<PaymentProgress>;
}

async function waitForStatus(intentId: string, status: IntentView['status']): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await getIntent(intentId)).status !== status) {
    if (Date.now() > deadline) throw new Error(`intent ${intentId} never reached ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
