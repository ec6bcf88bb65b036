/**
 * What the end of a paid call costs, counted on the real product: an x402 `exact` call through
 * /x402/fetch against the sandbox's paid API, and a ledger payment an owner makes (whose capture
 * is the same code), each with a payments worker whose every activity is run inside
 * countStatements. A paid call authorised in the agent's request and settled by its seller before
 * its workflow starts ends in one local activity (settlePaidInRequest) of at most 4 round trips:
 * BEGIN, the capture with its event and alerts, the audit entries, COMMIT; its workflow history
 * holds that activity and the patch that brought it, nothing else. The ledger payment's settle
 * step takes the same 4. Each ends with the ledger consistent and the audit entry listing every
 * step of the payment.
 */
import { NativeConnection } from '@temporalio/worker';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { countStatements, type PrismaClient } from '@purser/db';
import { createPaymentsWorker, paymentWorkflowId, type PaymentProgress } from '@purser/workflows';
import type { EvmChain } from '../src/services/chain/evm-chain';
import { startChain } from '../src/services/chain/start-chain';
import { createWorkerActivities } from '../src/worker-activities';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { AGENT_API, createFundedAgent, expectLedgerConsistent, ownerCall } from './support/x402-fixtures';

/** The settle's round trips: BEGIN, the capture, the audit entries, COMMIT. */
const SETTLE_ROUND_TRIPS = 4;

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

/** One activity run: its name, its intent, and the statements it sent (PGlite's adapter-own constraint check left out). */
type ActivityRun = { name: string; intentId: unknown; statements: string[] };

/** Runs `fn` with a payments worker whose activities record what they send. */
async function withCountingWorker<T>(fn: (runs: ActivityRun[]) => Promise<T>): Promise<T> {
  const runs: ActivityRun[] = [];
  const activities = createWorkerActivities({
    db: env.testApp.deps.db,
    logger: pino({ level: 'silent' }),
    masterKey: env.testApp.deps.masterKey,
    outbound: env.testApp.deps.outbound,
    temporal: env.temporal,
    chain,
  });
  const counted = Object.fromEntries(
    Object.entries(activities).map(([name, activity]) => [
      name,
      async (...args: unknown[]) => {
        const { result, statements } = await countStatements(() => (activity as (...a: unknown[]) => Promise<unknown>)(...args));
        runs.push({ name, intentId: args[0], statements: statements.map((sql) => sql.replace(/\s+/g, ' ').trim()).filter((sql) => sql !== 'SET CONSTRAINTS ALL IMMEDIATE') });
        return result;
      },
    ]),
  ) as typeof activities;
  const connection = await NativeConnection.connect({ address: env.server.address });
  try {
    const worker = await createPaymentsWorker({ connection, namespace: 'default', activities: counted, taskQueue: env.temporal.taskQueue });
    return await worker.runUntil(fn(runs));
  } finally {
    await connection.close();
  }
}

async function workflowOf(intentId: string) {
  const handle = env.client.workflow.getHandle(paymentWorkflowId(intentId));
  const progress = (await handle.result()) as PaymentProgress;
  const history = await handle.fetchHistory();
  return { progress, events: history.events ?? [] };
}

async function workflowAuditSteps(intentId: string): Promise<string[]> {
  const entry = await prisma.auditEvent.findFirstOrThrow({ where: { subject: `payment_intent:${intentId}`, action: 'payment_intent.workflow_completed' }, select: { data: true } });
  return (entry.data as { steps: { step: string; status: string }[] }).steps.map(({ step, status }) => `${step}:${status}`);
}

const EVERY_STEP = [
  'intent.created:completed',
  'policy_gate:completed',
  'approval:skipped',
  'intent.approved:completed',
  'rail_selection:completed',
  'reserve:completed',
  'execute:completed',
  'capture:completed',
  'release:skipped',
  'settlement.completed:completed',
  'audit:completed',
];

it(`ends an x402 exact paid call its seller settled in one local activity of at most ${SETTLE_ROUND_TRIPS} round trips`, async () => {
  const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
  await withCountingWorker(async (runs) => {
    for (const city of ['Porto', 'Lisbon']) {
      const response = await env.testApp.app.inject({
        method: 'POST',
        url: `${AGENT_API}/x402/fetch`,
        headers: { ...agent.headers, 'content-type': 'application/json' },
        payload: { url: `${appUrl}/sandbox/paid/weather?city=${city}` },
      });
      expect(response.statusCode, response.body).toBe(200);
      const intentId = (response.json() as { payment: { intent_id: string } }).payment.intent_id;
      const { progress, events } = await workflowOf(intentId);
      expect(progress.status).toBe('settled');

      const own = runs.filter((run) => run.intentId === intentId);
      expect(own.map((run) => run.name)).toEqual(['settlePaidInRequest']);
      const [settle] = own;
      expect(settle!.statements.length, settle!.statements.join('\n')).toBeLessThanOrEqual(SETTLE_ROUND_TRIPS);
      expect(settle!.statements[0]).toBe('BEGIN');
      expect(settle!.statements[settle!.statements.length - 1]).toBe('COMMIT');

      // One workflow task: the patch that brought the one-step end, and that one step.
      const markers = events.map((event) => event.markerRecordedEventAttributes?.markerName).filter((name) => name !== undefined);
      expect(markers).toEqual(['core_patch', 'core_local_activity']);
      expect(events.filter((event) => event.workflowTaskCompletedEventAttributes)).toHaveLength(1);
      expect(events.filter((event) => event.activityTaskScheduledEventAttributes)).toHaveLength(0);

      expect(await workflowAuditSteps(intentId)).toEqual(EVERY_STEP);
      expect(progress.steps.map(({ step, status }) => `${step}:${status}`)).toEqual(EVERY_STEP);
      const intent = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true, amount: true } });
      expect(intent).toEqual({ status: 'settled', amount: 10_000n });
      expect(await prisma.ledgerTransaction.count({ where: { paymentIntentId: intentId, type: 'payment_capture' } })).toBe(1);
      expect(await prisma.paymentEvent.count({ where: { paymentIntentId: intentId, type: 'settlement.completed' } })).toBe(1);
    }
  });
  await expectLedgerConsistent(prisma);
}, 180_000);

it(`settles a ledger payment, whose capture is the same, in at most ${SETTLE_ROUND_TRIPS} round trips`, async () => {
  const agent = await createFundedAgent(env.testApp.app, owner, { fund: 5 });
  await withCountingWorker(async (runs) => {
    const created = await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/intents', { agentId: agent.id, amount: 0.5 });
    expect(created.statusCode, created.body).toBe(201);
    const intentId = (created.json() as { id: string }).id;
    const { progress } = await workflowOf(intentId);
    expect(progress.status).toBe('settled');

    const settles = runs.filter((run) => run.intentId === intentId && run.name === 'settle');
    expect(settles).toHaveLength(1);
    expect(settles[0]!.statements.length, settles[0]!.statements.join('\n')).toBeLessThanOrEqual(SETTLE_ROUND_TRIPS);
    expect(await workflowAuditSteps(intentId)).toEqual(EVERY_STEP);
  });
  await expectLedgerConsistent(prisma);
}, 180_000);
