// paymentWorkflow's own decisions, on a real Temporal dev server and worker, with the steps
// handed in as an in-memory stand-in (STYLE.md: activities come from a factory, so tests hand
// in stub pieces). The server's real steps are tested in server/test/payments.temporal.test.ts;
// here: transient rail failures are retried with backoff up to maxRetries, exhausted retries
// release the held funds, and a declined payment is never retried.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, type IntentStatus, type GateDecision } from '@purser/core';
import { ensureTemporalCli } from '../../scripts/temporal-cli.mjs';
import { createActivities, createPaymentsWorker, paymentWorkflowId, startTemporalDevServer, WORKFLOW_NAMES, type DevServer, type PaymentSteps } from '../src/index';
import type { paymentWorkflow } from '../src/workflows/payment';
import type { PaymentProgress } from '../src/workflows/payment-messages';

const allow: GateDecision = { decision: 'allow', fired: [], shadow: [], timeBoxMs: null, evaluatedAt: '2026-11-24T00:00:00.000Z' };

const log = (message: string) => process.stderr.write(`[payment workflow test] ${message}\n`);

let dir: string;
let server: DevServer;
let client: Client;
let connection: Connection;

beforeAll(async () => {
  const cliPath = process.env.TEMPORAL_CLI_PATH ?? (await ensureTemporalCli({ log }));
  dir = mkdtempSync(join(tmpdir(), 'purser-payment-workflow-'));
  server = await startTemporalDevServer({ cliPath, dbFile: join(dir, 'temporal.db'), log });
  connection = await Connection.connect({ address: server.address });
  client = new Client({ connection, namespace: 'default' });
}, 15 * 60_000);

afterAll(async () => {
  await connection?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/**
 * An intent that passes its gate at once, and a record of every step called. authorize declines
 * unless `authorized` is given, so the steps run one by one.
 */
function stubSteps(
  executeOnRail: PaymentSteps['executeOnRail'],
  rail: Partial<Pick<PaymentSteps, 'checkRail' | 'abandonRail'>> = {},
  authorized: Awaited<ReturnType<PaymentSteps['authorize']>> = { authorized: false },
) {
  const calls: string[] = [];
  let status: IntentStatus = 'created';
  const record = (name: string) => calls.push(name);
  const steps: PaymentSteps = {
    authorize: async () => {
      record(`authorize:${authorized.authorized ? 'yes' : 'no'}`);
      if (authorized.authorized) status = 'processing';
      return authorized;
    },
    emitEvent: async (_id, type) => void record(`event:${type}`),
    loadGate: async () => ({
      intent: { amount: '5000000', currency: 'USDC', category: null, merchant: null, toAddress: null, merchantVerified: true, country: null, kyaTier: null },
      agent: { kyaTier: 'basic', spendingRules: { maxTransactionAmount: '100000000', maxDailyLimit: '1000000000', approvalThreshold: null } },
      policies: [],
      usage: { spentInWindow: '0', spentThisMonth: '0' },
      timeZone: 'UTC',
      revision: 'r1',
      status,
    }),
    applyGate: async (_id, decision) => {
      record(`gate:${decision.decision}`);
      status = 'approved';
      return { status };
    },
    openApproval: async () => 'pending',
    resolveApproval: async () => 'approved',
    selectRail: async () => ({ rail: 'card', sandbox: true }),
    reserveFunds: async () => {
      record('reserve');
      status = 'processing';
      return { status: 'reserved' };
    },
    executeOnRail: async (id) => {
      record('execute');
      return executeOnRail(id);
    },
    checkRail: async (id) => {
      record('check');
      return rail.checkRail ? rail.checkRail(id) : { rail: 'card', sandbox: true, reference: 'ref', status: 'settled', checkAfter: null };
    },
    abandonRail: async (id) => {
      record('abandon');
      return rail.abandonRail ? rail.abandonRail(id) : null;
    },
    capturePayment: async () => void record('capture'),
    settle: async (_id, steps) => void record(`settle:${steps.slice(-4).map((step) => `${step.step}=${step.status}`).join(',')}`),
    releaseFunds: async (_id, failure) => void record(`release:${failure.code}`),
    failIntent: async () => 'failed',
    recordWorkflowAudit: async () => void record('audit'),
  };
  return { steps, calls };
}

async function runPayment(steps: PaymentSteps, maxRetries: number): Promise<PaymentProgress> {
  const taskQueue = `payment-workflow-${randomUUID()}`;
  const workerConnection = await NativeConnection.connect({ address: server.address });
  try {
    const worker = await createPaymentsWorker({
      connection: workerConnection,
      namespace: 'default',
      taskQueue,
      activities: createActivities({ db: { kind: 'pglite', ping: async () => {} }, payments: steps }),
    });
    const intentId = randomUUID();
    return await worker.runUntil(
      client.workflow.execute<typeof paymentWorkflow>(WORKFLOW_NAMES.payment, {
        taskQueue,
        workflowId: paymentWorkflowId(intentId),
        args: [{ intentId, maxRetries }],
      }),
    );
  } finally {
    await workerConnection.close();
  }
}

describe('paymentWorkflow', () => {
  it('retries a rail that fails transiently, with backoff, and settles once it answers', async () => {
    let attempts = 0;
    const { steps, calls } = stubSteps(async () => {
      attempts += 1;
      if (attempts < 3) throw new Error('connection reset by the rail');
      return { rail: 'card', sandbox: true, reference: 'ref', status: 'settled', checkAfter: null };
    });

    const result = await runPayment(steps, 3);

    expect(result.status).toBe('settled');
    expect(attempts).toBe(3);
    expect(calls).toEqual([
      'authorize:no',
      'event:intent.created',
      'gate:allow',
      'event:intent.approved',
      'reserve',
      'execute',
      'execute',
      'execute',
      'settle:capture=completed,release=skipped,settlement.completed=completed,audit=completed',
    ]);
  }, 60_000);

  it('takes the front of an authorized payment in one step, yet lists every step of it in its progress', async () => {
    const { steps, calls } = stubSteps(async () => ({ rail: 'card', sandbox: true, reference: 'ref', status: 'settled', checkAfter: null }), {}, {
      authorized: true,
      rail: 'card',
      sandbox: true,
      decision: allow,
    });

    const result = await runPayment(steps, 3);

    expect(result.status).toBe('settled');
    // Capture, the settlement event and the audit entry: one step, one transaction.
    expect(calls).toEqual(['authorize:yes', 'execute', 'settle:capture=completed,release=skipped,settlement.completed=completed,audit=completed']);
    expect(result.steps.map((step) => `${step.step}:${step.status}:${step.detail ?? ''}`)).toEqual([
      'intent.created:completed:',
      'policy_gate:completed:allow',
      'approval:skipped:not required',
      'intent.approved:completed:',
      'rail_selection:completed:card (sandbox)',
      'reserve:completed:',
      'execute:completed:ref',
      'capture:completed:',
      'release:skipped:not needed',
      'settlement.completed:completed:',
      'audit:completed:',
    ]);
  }, 60_000);

  it('retries the ledger rail’s execute of an authorized payment as its retries allow, then releases', async () => {
    let attempts = 0;
    const { steps, calls } = stubSteps(
      async () => {
        attempts += 1;
        throw new Error('database went away');
      },
      {},
      { authorized: true, rail: 'ledger', sandbox: false, decision: allow },
    );

    const result = await runPayment(steps, 1);

    expect(result.status).toBe('failed');
    expect(attempts).toBe(2);
    expect(calls.filter((call) => call.startsWith('release') || call.startsWith('settle') || call === 'abandon')).toEqual(['abandon', 'release:RAIL_ERROR']);
  }, 60_000);

  it('releases the held funds once the retries the intent allows are spent', async () => {
    let attempts = 0;
    const { steps, calls } = stubSteps(async () => {
      attempts += 1;
      throw new Error('rail unreachable');
    });

    const result = await runPayment(steps, 1);

    expect(result.status).toBe('failed');
    expect(attempts).toBe(2);
    expect(calls.filter((call) => call.startsWith('release') || call.startsWith('settle') || call === 'abandon')).toEqual(['abandon', 'release:RAIL_ERROR']);
    expect(result.steps.find((step) => step.step === 'execute')).toMatchObject({ status: 'failed', detail: 'The rail failed after 2 attempts' });
  }, 60_000);

  it('never retries a declined payment and releases it with the decline', async () => {
    let attempts = 0;
    const { steps, calls } = stubSteps(async () => {
      attempts += 1;
      throw new AppError('PAYMENT_DECLINED', 'The card has expired.');
    });

    const result = await runPayment(steps, 5);

    expect(result.status).toBe('failed');
    expect(attempts).toBe(1);
    expect(calls).toContain('release:PAYMENT_DECLINED');
    expect(calls.filter((call) => call.startsWith('settle') || call === 'capture')).toEqual([]);
  }, 60_000);

  it('keeps the hold while a pending operation cannot be read, however many polls fail, and captures once it settles', async () => {
    let checks = 0;
    const { steps, calls } = stubSteps(async () => ({ rail: 'x402-base', sandbox: true, reference: 'nonce', status: 'pending', checkAfter: null }), {
      checkRail: async () => {
        checks += 1;
        // Far more failures than the intent's retries: an RPC outage while the authorisation lives.
        if (checks < 6) throw new Error('chain RPC unreachable');
        return { rail: 'x402-base', sandbox: true, reference: 'nonce', status: 'settled', checkAfter: null };
      },
    });

    const result = await runPayment(steps, 1);

    expect(result.status).toBe('settled');
    expect(checks).toBe(6);
    expect(calls.filter((call) => call.startsWith('release') || call.startsWith('settle'))).toEqual([
      'settle:capture=completed,release=skipped,settlement.completed=completed,audit=completed',
    ]);
  }, 120_000);

  it('when execute fails for good after the rail started, stands the rail down and follows it to its final answer before releasing', async () => {
    let checks = 0;
    const { steps, calls } = stubSteps(
      async () => {
        throw new Error('worker lost the chain after signing');
      },
      {
        abandonRail: async () => ({ rail: 'x402-base', sandbox: true, reference: 'nonce', status: 'pending', checkAfter: null }),
        checkRail: async () => {
          checks += 1;
          if (checks < 2) return { rail: 'x402-base', sandbox: true, reference: 'nonce', status: 'pending', checkAfter: null };
          throw new AppError('PAYMENT_DECLINED', 'The authorisation was cancelled on chain; nothing moved');
        },
      },
    );

    const result = await runPayment(steps, 0);

    expect(result.status).toBe('failed');
    expect(calls.filter((call) => ['execute', 'abandon', 'check', 'capture'].includes(call) || call.startsWith('release') || call.startsWith('settle'))).toEqual([
      'execute',
      'abandon',
      'check',
      'check',
      'release:PAYMENT_DECLINED',
    ]);
  }, 60_000);
});
