// paymentWorkflow's own decisions, on a real Temporal dev server and worker, with the steps
// handed in as an in-memory stand-in (STYLE.md: activities come from a factory, so tests hand
// in stub pieces). The server's real steps are tested in server/test/payments.temporal.test.ts;
// here: the workflow follows each outcome of the front (authorizePayment) with the steps it
// stands for, transient rail failures are retried with backoff up to maxRetries, exhausted
// retries release the held funds, and a declined payment is never retried.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, type AuthorizeOutcome, type GateDecision, type PaymentActivities } from '@purser/core';
import { createActivities, createPaymentsWorker, ensureTemporalCli, paymentWorkflowId, startTemporalDevServer, WORKFLOW_NAMES, type DevServer, type PaymentSteps } from '../src/index';
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

const onCard: AuthorizeOutcome = { outcome: 'authorized', decision: allow, rail: 'card', sandbox: true };

/**
 * A record of every step called. authorizePayment answers `fronts` in turn (the last one again
 * when they run out); a card payment that passes its gate at once unless given.
 */
function stubSteps(
  executeOnRail: PaymentSteps['executeOnRail'],
  rail: Partial<Pick<PaymentSteps, 'checkRail' | 'abandonRail'>> = {},
  fronts: AuthorizeOutcome[] = [onCard],
  /** What settlePaidInRequest finds: the seller's settlement (it settles), or nothing yet. */
  inRequest: 'settled' | 'not yet' = 'not yet',
) {
  const calls: string[] = [];
  const record = (name: string) => calls.push(name);
  let front = 0;
  const beforeOneFront = () => {
    throw new Error('a run started today never takes the front step by step');
  };
  const steps: PaymentActivities = {
    authorizePayment: async () => {
      const outcome = fronts[Math.min(front++, fronts.length - 1)]!;
      record(`authorize:${outcome.outcome}`);
      return outcome;
    },
    resolveApproval: async () => {
      record('resolve');
      return 'approved';
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
    settle: async (_id, steps) => void record(`settle:${steps.slice(-4).map((step) => `${step.step}=${step.status}`).join(',')}`),
    settlePaidInRequest: async (_id, end) => {
      record(`settlePaidInRequest:${inRequest}`);
      if (inRequest !== 'settled') return null;
      return [{ step: 'execute', status: 'completed', at: '2026-11-24T00:00:00.000Z', detail: 'ref' }, ...end];
    },
    releaseFunds: async (_id, failure) => void record(`release:${failure.code}`),
    failIntent: async () => 'failed',
    recordWorkflowAudit: async () => void record('audit'),
    emitEvent: beforeOneFront,
    authorize: beforeOneFront,
    loadGate: beforeOneFront,
    applyGate: beforeOneFront,
    openApproval: beforeOneFront,
    selectRail: beforeOneFront,
    reserveFunds: beforeOneFront,
  };
  return { steps, calls };
}

/** The workflow id of the last runPayment, to read its history. */
let lastWorkflowId = '';

async function runPayment(steps: PaymentActivities, maxRetries: number, input: { paidInRequest?: boolean } = {}): Promise<PaymentProgress> {
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
    lastWorkflowId = paymentWorkflowId(intentId);
    return await worker.runUntil(
      client.workflow.execute<typeof paymentWorkflow>(WORKFLOW_NAMES.payment, {
        taskQueue,
        workflowId: lastWorkflowId,
        args: [{ intentId, maxRetries, ...input }],
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
      'authorize:authorized',
      'execute',
      'execute',
      'execute',
      'settle:capture=completed,release=skipped,settlement.completed=completed,audit=completed',
    ]);
  }, 60_000);

  it('takes the front of an authorized payment in one step, yet lists every step of it in its progress', async () => {
    const { steps, calls } = stubSteps(async () => ({ rail: 'card', sandbox: true, reference: 'ref', status: 'settled', checkAfter: null }));

    const result = await runPayment(steps, 3);

    expect(result.status).toBe('settled');
    // Capture, the settlement event and the audit entry: one step, one transaction.
    expect(calls).toEqual(['authorize:authorized', 'execute', 'settle:capture=completed,release=skipped,settlement.completed=completed,audit=completed']);
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

  it('ends a payment authorised in the request in one step when its seller has settled it, with nothing else in its history', async () => {
    const { steps, calls } = stubSteps(async () => ({ rail: 'card', sandbox: true, reference: 'ref', status: 'settled', checkAfter: null }), {}, [onCard], 'settled');

    const result = await runPayment(steps, 3, { paidInRequest: true });

    expect(calls).toEqual(['settlePaidInRequest:settled']);
    expect(result.status).toBe('settled');
    expect(result.steps.map((step) => `${step.step}:${step.status}`)).toEqual([
      'execute:completed',
      'capture:completed',
      'release:skipped',
      'settlement.completed:completed',
      'audit:completed',
    ]);
    // One workflow task, its patch marker, and one local activity: the settle.
    const history = await client.workflow.getHandle(lastWorkflowId).fetchHistory();
    const markers = (history.events ?? []).map((event) => event.markerRecordedEventAttributes?.markerName).filter((name) => name !== undefined);
    expect(markers).toEqual(['core_patch', 'core_local_activity']);
    expect(history.events?.filter((event) => event.workflowTaskCompletedEventAttributes)).toHaveLength(1);
  }, 60_000);

  it('takes the usual way for a payment authorised in the request that its seller has not settled yet', async () => {
    const { steps, calls } = stubSteps(async () => ({ rail: 'card', sandbox: true, reference: 'ref', status: 'settled', checkAfter: null }), {}, [onCard], 'not yet');

    const result = await runPayment(steps, 3, { paidInRequest: true });

    expect(result.status).toBe('settled');
    expect(calls).toEqual([
      'settlePaidInRequest:not yet',
      'authorize:authorized',
      'execute',
      'settle:capture=completed,release=skipped,settlement.completed=completed,audit=completed',
    ]);
    expect(result.steps[0]).toMatchObject({ step: 'intent.created', status: 'completed' });
  }, 60_000);

  it('follows every outcome of the front: it waits for the owner, then goes to the front again to be held', async () => {
    const needsApproval: GateDecision = {
      ...allow,
      decision: 'require_approval',
      fired: [{ rule: 'agent.approvalThreshold', outcome: 'require_approval', code: 'APPROVAL_THRESHOLD_EXCEEDED', message: 'Over $50', shadow: false }],
    };
    // The time box has run out already: the wait ends at once and the database answers (approved).
    const { steps, calls } = stubSteps(async () => ({ rail: 'card', sandbox: true, reference: 'ref', status: 'settled', checkAfter: null }), {}, [
      { outcome: 'needs_approval', decision: needsApproval, expiresAt: '2026-01-01T00:00:00.000Z' },
      onCard,
    ]);

    const result = await runPayment(steps, 0);

    expect(result.status).toBe('settled');
    expect(calls.slice(0, 4)).toEqual(['authorize:needs_approval', 'resolve', 'authorize:authorized', 'execute']);
    expect(result.steps.map((step) => `${step.step}:${step.status}:${step.detail ?? ''}`).slice(0, 7)).toEqual([
      'intent.created:completed:',
      'policy_gate:completed:require_approval: APPROVAL_THRESHOLD_EXCEEDED',
      'approval:completed:approved by the owner',
      'intent.approved:completed:',
      'rail_selection:completed:card (sandbox)',
      'reserve:completed:',
      'execute:completed:ref',
    ]);
  }, 60_000);

  it.each([
    {
      name: 'a denial',
      front: { outcome: 'refused', status: 'blocked', at: 'policy_gate', rail: null, failure: { code: 'CATEGORY_NOT_ALLOWED', message: 'No gambling' } } as const,
      steps: ['intent.created:completed:', 'policy_gate:failed:deny: CATEGORY_NOT_ALLOWED', 'policy_gate:failed:policy.violation emitted', 'audit:completed:'],
    },
    {
      name: 'no rail',
      front: { outcome: 'refused', status: 'failed', at: 'rail_selection', rail: null, failure: { code: 'RAIL_UNAVAILABLE', message: 'No x402 chain' } } as const,
      steps: ['intent.created:completed:', 'policy_gate:completed:allow', 'approval:skipped:not required', 'intent.approved:completed:', 'rail_selection:failed:No x402 chain', 'audit:completed:'],
    },
    {
      name: 'too little money',
      front: { outcome: 'refused', status: 'failed', at: 'reserve', rail: { rail: 'ledger', sandbox: false }, failure: { code: 'INSUFFICIENT_FUNDS', message: 'Insufficient balance' } } as const,
      steps: [
        'intent.created:completed:',
        'policy_gate:completed:allow',
        'approval:skipped:not required',
        'intent.approved:completed:',
        'rail_selection:completed:ledger',
        'reserve:failed:Insufficient balance',
        'audit:completed:',
      ],
    },
  ])('ends at the front on $name, moving nothing, with the steps it stands for', async ({ front, steps: expected }) => {
    const decision: GateDecision =
      front.at === 'policy_gate'
        ? { ...allow, decision: 'deny', fired: [{ rule: 'allowedCategories', outcome: 'deny', code: 'CATEGORY_NOT_ALLOWED', message: 'No gambling', shadow: false }] }
        : allow;
    const { steps, calls } = stubSteps(async () => ({ rail: 'card', sandbox: true, reference: 'ref', status: 'settled', checkAfter: null }), {}, [{ ...front, decision }]);

    const result = await runPayment(steps, 0);

    expect(result.status).toBe(front.status);
    expect(calls).toEqual(['authorize:refused', 'audit']);
    expect(result.steps.map((step) => `${step.step}:${step.status}:${step.detail ?? ''}`)).toEqual(expected);
  }, 60_000);

  it('ends a payment that left the front before it ran (cancelled) without another step', async () => {
    const { steps, calls } = stubSteps(async () => ({ rail: 'card', sandbox: true, reference: 'ref', status: 'settled', checkAfter: null }), {}, [
      { outcome: 'ended', status: 'cancelled' },
    ]);
    const result = await runPayment(steps, 0);
    expect(result.status).toBe('cancelled');
    expect(calls).toEqual(['authorize:ended', 'audit']);
    expect(result.steps.map((step) => `${step.step}:${step.status}:${step.detail ?? ''}`)).toEqual(['intent.created:completed:', 'policy_gate:skipped:intent is cancelled', 'audit:completed:']);
  }, 60_000);

  it('retries the ledger rail’s execute of an authorized payment as its retries allow, then releases', async () => {
    let attempts = 0;
    const { steps, calls } = stubSteps(
      async () => {
        attempts += 1;
        throw new Error('database went away');
      },
      {},
      [{ outcome: 'authorized', decision: allow, rail: 'ledger', sandbox: false }],
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
