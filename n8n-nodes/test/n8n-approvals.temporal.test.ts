/**
 * Waiting for the owner's approval in a real n8n (2.8.4, offline), against a started product:
 * a payment above the agent's approval threshold answers 202 pending_approval, and the
 * workflow loops through a Wait node until it is decided. The loop is the docs' (n8n → Waiting
 * for approval), taken from the markdown; a loop back to Payment → Create with a derived key
 * is checked too. Neither may pay twice. The owner's side runs in n8n as well: listing what
 * waits, approving it, suspending and resuming the agent. Money is checked in the agents'
 * ledger balances and by the ledger's own verification.
 *
 * The first run installs n8n into the cache (scripts/n8n.mjs): minutes, hence the long hooks.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLedgerUsdc, docRecipe, fillIn, startTemporalTestEnv, verifyLedger, type PayingAgent, type TemporalTestEnv } from '@purser/server/testing';
import { PAYMENT_STATUSES } from '../nodes/Purser/shared/paymentStatus';
import { nodeOutput, nodeRuns, packPackage, startN8n, type N8n } from './support/n8n';
import { agentCall, signUpOwner, type TestOwner } from './support/purser-owner';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy';
import { ifTrue, jsonItem, manualTrigger, purserNode, waitSeconds, workflowOf, type Credentials } from './support/workflows';

const SETUP_TIMEOUT_MS = 30 * 60_000;
const EXECUTION_TIMEOUT_MS = 300_000;

const AGENT: Credentials = { purserApi: { id: 'purserAgentCred1', name: 'Purser agent' } };
const OWNER: Credentials = { purserOwnerApi: { id: 'purserOwnerCred1', name: 'Purser owner' } };
const WORKFLOW_IDS = {
  recipe: 'purserApprRecipe',
  recipeNeverApproved: 'purserApprNever1',
  createLoop: 'purserApprLoop01',
  ownerApproves: 'purserOwnerAppr1',
  suspend: 'purserOwnerSusp1',
  resume: 'purserOwnerResu1',
};
/** The payee of the docs' example invoice. */
const EXAMPLE_PAYEE = '0x000000000000000000000000000000000000dEaD';
/** Above the payer's approval threshold (5), within its per-payment limit (25), as the docs' invoice. */
const AMOUNT = 7.5;
const AMOUNT_ATOMIC = 7_500_000n;

let env: TemporalTestEnv;
let n8n: N8n;
let proxy: RecordingProxy;
let owner: TestOwner;
let payer: PayingAgent;
let payee: PayingAgent;
let workDir: string;

/**
 * The docs' loop: Invoice → Pay invoice → Waiting for the owner? → Wait → Check payment (and
 * back), with this product's payee, a fresh invoice, a 2 s wait and at most `checks` checks.
 */
async function recipe(id: string, checks: number) {
  const text = await docRecipe('n8n', 'Waiting for approval', 'json');
  const filled = fillIn(text, {
    [EXAMPLE_PAYEE]: payee.walletAddress,
    'INV-2001': `INV-${randomUUID()}`,
    '"amount": 30': '"amount": 2',
    '$runIndex < 20': `$runIndex < ${checks}`,
  });
  return { ...(JSON.parse(filled) as object), id, active: false };
}

/**
 * The loop of the issue: Order → Pay → (still pending?) → Wait → back to Pay, with the key
 * derived by the node. Pay takes its amount from the Order node, as a loop must.
 */
function createLoop(id: string, name: string, passes: number) {
  const order = jsonItem('Order', { invoice: `INV-${id}`, amount: AMOUNT });
  const pay = purserNode(
    'Pay',
    {
      resource: 'payment',
      operation: 'create',
      amount: "={{ $('Order').item.json.amount }}",
      toAddress: payee.walletAddress,
      currency: 'USDC',
      options: { description: "={{ 'Invoice ' + $('Order').item.json.invoice }}" },
    },
    AGENT,
  );
  const pending = ifTrue('Pending?', `$json.status === 'pending_approval' && $runIndex < ${passes}`);
  const wait = waitSeconds('Wait', 2);
  return workflowOf(id, name, [manualTrigger(), order, pay, pending, wait], [['Start', 'Order'], ['Order', 'Pay'], ['Pay', 'Pending?'], ['Pending?', 'Wait', 0], ['Wait', 'Pay']]);
}

async function workflows() {
  const single = (id: string, name: string, nodes: ReturnType<typeof purserNode>[]) =>
    workflowOf(id, name, [manualTrigger(), ...nodes], [['Start', nodes[0]!.name], ...nodes.slice(1).map((entry, index): [string, string] => [nodes[index]!.name, entry.name])]);
  return [
    await recipe(WORKFLOW_IDS.recipe, 20),
    await recipe(WORKFLOW_IDS.recipeNeverApproved, 2),
    createLoop(WORKFLOW_IDS.createLoop, 'Purser: pay, and pay again until approved', 20),
    single(WORKFLOW_IDS.ownerApproves, 'Purser: approve what waits', [
      purserNode('Pending', { resource: 'payment', operation: 'getPending', returnAll: true, filters: { agent: payer.did } }, OWNER),
      purserNode('Approve', { resource: 'payment', operation: 'approve', intentId: '={{ $json.id }}', reason: 'Approved from n8n' }, OWNER),
    ]),
    single(WORKFLOW_IDS.suspend, 'Purser: suspend the agent', [purserNode('Suspend', { resource: 'agent', operation: 'suspend', agent: payer.did }, OWNER)]),
    single(WORKFLOW_IDS.resume, 'Purser: resume the agent', [purserNode('Resume', { resource: 'agent', operation: 'resume', agent: payer.did }, OWNER)]),
  ];
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'purser-n8n-approvals-'));
  const n8nReady = packPackage(workDir).then((file) => startN8n(file));
  n8nReady.catch(() => undefined);

  env = await startTemporalTestEnv({ agentRateLimitPerMinute: 10_000 });
  const productUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  proxy = await startRecordingProxy(productUrl);
  owner = await signUpOwner(env);
  payer = await owner.createAgent('n8n approvals payer', { approval_threshold: 5 });
  payee = await owner.createAgent('n8n approvals payee');
  await owner.fund(payer, 50);

  n8n = await n8nReady;
  await n8n.importCredentials([
    { id: AGENT.purserApi!.id, name: AGENT.purserApi!.name, type: 'purserApi', data: { baseUrl: proxy.url, agentDid: payer.did, apiKey: payer.key } },
    { id: OWNER.purserOwnerApi!.id, name: OWNER.purserOwnerApi!.name, type: 'purserOwnerApi', data: { baseUrl: proxy.url, apiKey: owner.apiKey } },
  ]);
  await n8n.importWorkflows(await workflows());
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  n8n?.close();
  await proxy?.close();
  await env?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}, 120_000);

interface Intent {
  id: string;
  status: string;
  idempotencyKey: string;
}

const payerIntents = async () => (await owner.call<{ intents: Intent[] }>('GET', `/intents?agentId=${payer.id}&limit=100`)).intents;
const balances = async () => ({ payer: await agentLedgerUsdc(env.testApp.app, payer), payee: await agentLedgerUsdc(env.testApp.app, payee) });
const paymentCalls = (from: number) => proxy.exchanges.slice(from).filter((exchange) => exchange.method === 'POST' && exchange.path.endsWith('/payment'));

/**
 * Runs the workflow with a payments worker; once the workflow has asked `approveAfterCalls`
 * times and its payment waits, the owner approves it through the owner API.
 */
async function runApprovingMidway(workflowId: string, approveAfterCalls: number, calls: (from: number) => unknown[]) {
  const from = proxy.exchanges.length;
  return env.runWorker(async () => {
    const execution = n8n.execute(workflowId);
    let settledExecution: Awaited<typeof execution> | undefined;
    void execution.then((result) => (settledExecution = result), () => undefined);
    for (;;) {
      if (settledExecution) throw new Error(`the workflow ended before the owner approved:\n${settledExecution.output.slice(-3000)}`);
      const waiting = (await payerIntents()).find((intent) => intent.status === 'pending_approval');
      if (waiting && calls(from).length >= approveAfterCalls) {
        await owner.call('POST', `/intents/${waiting.id}/approve`, { reason: 'approved midway' });
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return { ...(await execution), from };
  });
}

describe('waiting for approval in a loop, in a real n8n', () => {
  const statusCalls = (from: number) => proxy.exchanges.slice(from).filter((exchange) => exchange.method === 'GET' && /\/payment\//.test(exchange.path));

  it(
    "ends settled with exactly one payment: the docs' loop pays, checks with Payment → Get until the owner approves midway",
    async () => {
      const intentsBefore = (await payerIntents()).length;
      const before = await balances();
      const { code, result, output, from } = await runApprovingMidway(WORKFLOW_IDS.recipe, 2, statusCalls);
      expect(code, output).toBe(0);

      const [paid] = nodeRuns(result, 'Pay invoice').map((run) => run[0]!);
      expect(nodeRuns(result, 'Pay invoice')).toHaveLength(1);
      expect(paid).toMatchObject({ status: 'pending_approval', idempotency_key: expect.stringMatching(/^invoice-INV-/) });
      // What to do next, in the node's words: Payment → Get, not the API's GET /payment/{intent_id}.
      expect(paid!.message).toBe(PAYMENT_STATUSES.pending_approval!.message);
      expect(paid!.message).toContain('Payment → Get');
      expect(paid!.message).not.toMatch(/GET \/payment|Idempotency-Key/);
      const checks = nodeRuns(result, 'Check payment').map((run) => run[0]!);
      expect(checks.length).toBeGreaterThanOrEqual(2);
      expect(checks[0]).toMatchObject({ status: 'pending_approval', intent_id: paid!.intent_id });
      expect(checks.at(-1)).toMatchObject({ status: 'settled', intent_id: paid!.intent_id, amount_exact: '7.5' });

      // On the wire: one payment request, then reads only.
      expect(paymentCalls(from).map((call) => ({ key: call.idempotencyKey, replayed: call.replayed }))).toEqual([{ key: paid!.idempotency_key, replayed: false }]);
      expect(statusCalls(from)).toHaveLength(checks.length);

      // In the ledger: exactly one payment of 7.50.
      expect((await payerIntents()).length - intentsBefore).toBe(1);
      const after = await balances();
      expect(before.payer - after.payer).toBe(AMOUNT_ATOMIC);
      expect(after.payee - before.payee).toBe(AMOUNT_ATOMIC);
    },
    EXECUTION_TIMEOUT_MS,
  );

  it(
    "moves nothing when the approval never comes: the docs' loop gives up with the payment still pending",
    async () => {
      const intentsBefore = (await payerIntents()).length;
      const before = await balances();
      const from = proxy.exchanges.length;
      const { code, result, output } = await env.runWorker(() => n8n.execute(WORKFLOW_IDS.recipeNeverApproved));
      expect(code, output).toBe(0);

      const [paid] = nodeRuns(result, 'Pay invoice').map((run) => run[0]!);
      const checks = nodeRuns(result, 'Check payment').map((run) => run[0]!);
      expect(checks).toHaveLength(2);
      for (const check of [paid, ...checks]) expect(check).toMatchObject({ status: 'pending_approval', intent_id: paid!.intent_id });
      expect(paymentCalls(from)).toHaveLength(1);

      expect((await payerIntents()).length - intentsBefore).toBe(1);
      expect(await balances()).toEqual(before);

      // The owner says no afterwards: still nothing moves.
      await env.runWorker(() => owner.call('POST', `/intents/${String(paid!.intent_id)}/reject`, { reason: 'not this one' }));
      expect(await balances()).toEqual(before);
    },
    EXECUTION_TIMEOUT_MS,
  );

  it(
    'pays once when the loop goes back to Payment → Create: the derived key is the same on every pass',
    async () => {
      const intentsBefore = (await payerIntents()).length;
      const before = await balances();
      const { code, result, output, from } = await runApprovingMidway(WORKFLOW_IDS.createLoop, 2, paymentCalls);
      expect(code, output).toBe(0);

      const passes = nodeRuns(result, 'Pay').map((run) => run[0]!);
      expect(passes.length).toBeGreaterThanOrEqual(3);
      expect(passes[0]).toMatchObject({ status: 'pending_approval' });
      expect(passes.at(-1)).toMatchObject({ status: 'settled', amount_exact: '7.5' });
      expect(new Set(passes.map((pass) => pass.intent_id)).size).toBe(1);
      expect(new Set(passes.map((pass) => pass.idempotency_key)).size).toBe(1);
      expect(passes[0]!.idempotency_key).toMatch(/^n8n-[0-9a-f]{64}$/);

      // On the wire: one key on every pass; only the first call created the payment.
      const calls = paymentCalls(from);
      expect(calls).toHaveLength(passes.length);
      expect(new Set(calls.map((call) => call.idempotencyKey))).toEqual(new Set([passes[0]!.idempotency_key]));
      expect(calls.map((call) => call.replayed)).toEqual([false, ...calls.slice(1).map(() => true)]);

      expect((await payerIntents()).length - intentsBefore).toBe(1);
      const after = await balances();
      expect(before.payer - after.payer).toBe(AMOUNT_ATOMIC);
      expect(after.payee - before.payee).toBe(AMOUNT_ATOMIC);
    },
    EXECUTION_TIMEOUT_MS,
  );
});

describe("the owner's operations in a real n8n", () => {
  it(
    'approves a pending payment with the owner credential, and the agent’s repeated call answers settled',
    async () => {
      const key = `n8n-approval-${randomUUID()}`;
      const payment = { amount: AMOUNT, currency: 'USDC', to_address: payee.walletAddress, description: 'Needs the owner' };
      const before = await balances();
      const asked = await env.runWorker(() => agentCall(env, payer, 'POST', '/payment', { payload: payment, idempotencyKey: key }));
      expect(asked.statusCode, JSON.stringify(asked.body)).toBe(202);
      expect(asked.body).toMatchObject({ status: 'pending_approval' });

      const { code, result, output } = await env.runWorker(() => n8n.execute(WORKFLOW_IDS.ownerApproves));
      expect(code, output).toBe(0);
      expect(nodeOutput(result, 'Pending').map((intent) => intent.id)).toEqual([asked.body.intent_id]);
      expect(nodeOutput(result, 'Approve')[0]).toMatchObject({ id: asked.body.intent_id, approval: { status: 'approved', reason: 'Approved from n8n' } });

      const repeated = await env.runWorker(() => agentCall(env, payer, 'POST', '/payment', { payload: payment, idempotencyKey: key }));
      expect(repeated).toMatchObject({ statusCode: 200, replayed: true, body: { intent_id: asked.body.intent_id, status: 'settled' } });
      const after = await balances();
      expect(before.payer - after.payer).toBe(AMOUNT_ATOMIC);
      expect(after.payee - before.payee).toBe(AMOUNT_ATOMIC);
    },
    EXECUTION_TIMEOUT_MS,
  );

  it(
    'suspends the agent, whose calls are then refused, and resumes it',
    async () => {
      const suspended = await n8n.execute(WORKFLOW_IDS.suspend);
      expect(suspended.code, suspended.output).toBe(0);
      expect(nodeOutput(suspended.result, 'Suspend')[0]).toMatchObject({ id: payer.id, status: 'suspended' });
      expect(await agentCall(env, payer, 'GET', '/balance')).toMatchObject({ statusCode: 403, body: { error: { code: 'AGENT_SUSPENDED' } } });

      const resumed = await n8n.execute(WORKFLOW_IDS.resume);
      expect(resumed.code, resumed.output).toBe(0);
      expect(nodeOutput(resumed.result, 'Resume')[0]).toMatchObject({ id: payer.id, status: 'active' });
      expect((await agentCall(env, payer, 'GET', '/balance')).statusCode).toBe(200);
    },
    EXECUTION_TIMEOUT_MS,
  );

  it('leaves the ledger balanced', async () => {
    expect((await verifyLedger(env.testApp.deps.db.prisma)).problems).toEqual([]);
  });
});
