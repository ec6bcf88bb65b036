/**
 * Budgets (payment sessions) in a real n8n (2.8.4, offline), against a started product: the
 * agent's workflow asks its owner for a $5 budget, the owner's workflow finds the request and
 * grants $3, the agent's workflow pays $1 naming the budget and reads it back (spent 1,
 * remaining 2), the owner's workflow revokes it, and the agent's next payment naming it is
 * refused and moves nothing. Money is checked in the agents' ledger balances and by the
 * ledger's own verification.
 *
 * The first run installs n8n into the cache (scripts/n8n.mjs): minutes, hence the long hooks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLedgerUsdc, startTemporalTestEnv, verifyLedger, type PayingAgent, type TemporalTestEnv } from '@purser/server/testing';
import { nodeOutput, packPackage, startN8n, type N8n } from './support/n8n';
import { signUpOwner, type TestOwner } from './support/purser-owner';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy';
import { manualTrigger, purserNode, workflowOf, type Credentials, type WorkflowNode } from './support/workflows';

const SETUP_TIMEOUT_MS = 30 * 60_000;
const EXECUTION_TIMEOUT_MS = 300_000;

const AGENT: Credentials = { purserApi: { id: 'purserAgentCred1', name: 'Purser agent' } };
const OWNER: Credentials = { purserOwnerApi: { id: 'purserOwnerCred1', name: 'Purser owner' } };
const WORKFLOW_IDS = {
  request: 'purserBudgetReqs',
  grant: 'purserBudgetGrnt',
  pay: 'purserBudgetPay1',
  revoke: 'purserBudgetRevk',
};
const REASON = 'Market data for the weekly report';
const ONE_DOLLAR = 1_000_000n;

let env: TemporalTestEnv;
let n8n: N8n;
let proxy: RecordingProxy;
let owner: TestOwner;
let payer: PayingAgent;
let payee: PayingAgent;
let workDir: string;

/** Start → the nodes one after the other. */
function chain(id: string, name: string, nodes: WorkflowNode[]) {
  return workflowOf(id, name, [manualTrigger(), ...nodes], [['Start', nodes[0]!.name], ...nodes.slice(1).map((entry, index): [string, string] => [nodes[index]!.name, entry.name])]);
}

function workflows() {
  return [
    chain(WORKFLOW_IDS.request, 'Purser: ask the owner for a budget', [
      purserNode(
        'Request budget',
        { resource: 'budget', operation: 'request', total: 5, expiresAt: '={{ $now.plus({ hours: 2 }).toISO() }}', reason: REASON, options: { perPaymentMax: 2 } },
        AGENT,
      ),
    ]),
    chain(WORKFLOW_IDS.grant, 'Purser: grant what waits, for less', [
      purserNode('Waiting', { resource: 'budget', operation: 'getAllAsOwner', filters: { agent: payer.did, status: 'requested' } }, OWNER),
      purserNode('Grant', { resource: 'budget', operation: 'grant', sessionId: '={{ $json.id }}', options: { total: 3, note: 'Three dollars will do' } }, OWNER),
    ]),
    // The agent pays from its budget: its latest budget names the session, whatever its status.
    chain(WORKFLOW_IDS.pay, 'Purser: pay from the budget', [
      purserNode('Budgets', { resource: 'budget', operation: 'getAll' }, AGENT),
      purserNode(
        'Pay',
        {
          resource: 'payment',
          operation: 'create',
          amount: 1,
          toAddress: payee.walletAddress,
          currency: 'USDC',
          options: { sessionId: '={{ $json.session_id }}', description: 'Market data' },
        },
        AGENT,
        { onError: 'continueRegularOutput' },
      ),
      purserNode('Check budget', { resource: 'budget', operation: 'get', sessionId: "={{ $('Budgets').item.json.session_id }}" }, AGENT),
    ]),
    chain(WORKFLOW_IDS.revoke, 'Purser: revoke the open budget', [
      purserNode('Open budgets', { resource: 'budget', operation: 'getAllAsOwner', filters: { agent: payer.did, status: 'open' } }, OWNER),
      purserNode('Revoke', { resource: 'budget', operation: 'revoke', sessionId: '={{ $json.id }}' }, OWNER),
    ]),
  ];
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'purser-n8n-budgets-'));
  const n8nReady = packPackage(workDir).then((file) => startN8n(file));
  n8nReady.catch(() => undefined);

  env = await startTemporalTestEnv({ agentRateLimitPerMinute: 10_000 });
  const productUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  proxy = await startRecordingProxy(productUrl);
  owner = await signUpOwner(env);
  payer = await owner.createAgent('n8n budgets payer');
  payee = await owner.createAgent('n8n budgets payee');
  await owner.fund(payer, 20);

  n8n = await n8nReady;
  await n8n.importCredentials([
    { id: AGENT.purserApi!.id, name: AGENT.purserApi!.name, type: 'purserApi', data: { baseUrl: proxy.url, agentDid: payer.did, apiKey: payer.key } },
    { id: OWNER.purserOwnerApi!.id, name: OWNER.purserOwnerApi!.name, type: 'purserOwnerApi', data: { baseUrl: proxy.url, apiKey: owner.apiKey } },
  ]);
  await n8n.importWorkflows(workflows());
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  n8n?.close();
  await proxy?.close();
  await env?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}, 120_000);

interface Session {
  id: string;
  status: string;
  total: number;
  spent: number;
  remaining: number;
  closedReason: string | null;
}

const balances = async () => ({ payer: await agentLedgerUsdc(env.testApp.app, payer), payee: await agentLedgerUsdc(env.testApp.app, payee) });
const sessionOf = (id: string) => owner.call<Session>('GET', `/payment-sessions/${id}`);
const paymentCalls = (from: number) => proxy.exchanges.slice(from).filter((exchange) => exchange.method === 'POST' && exchange.path.endsWith('/payment'));

/** Runs a workflow with a payments worker, and expects it to end well. */
async function execute(workflowId: string) {
  const { code, result, output } = await env.runWorker(() => n8n.execute(workflowId));
  expect(code, output).toBe(0);
  return result;
}

describe('budgets in a real n8n', () => {
  let sessionId: string;

  it(
    'asks the owner for a $5 budget with the agent credential, which then waits as requested',
    async () => {
      const result = await execute(WORKFLOW_IDS.request);
      const [requested] = nodeOutput(result, 'Request budget');
      expect(requested).toMatchObject({ status: 'requested', total: 5, total_exact: '5', per_payment_max: 2, spent: 0, reason: REASON, approval_url: expect.stringContaining('/approve/') });
      sessionId = String(requested!.session_id);
      // What to do next, in the node's words rather than the API's.
      expect(requested!.message).toContain('Budget → Get');
      expect(requested!.message).not.toMatch(/GET \/budget|get_budget/);
      expect(await sessionOf(sessionId)).toMatchObject({ status: 'requested', total: 5, requestedBy: 'agent' });
    },
    EXECUTION_TIMEOUT_MS,
  );

  it(
    'lists the waiting request with the owner credential and grants it for $3',
    async () => {
      const result = await execute(WORKFLOW_IDS.grant);
      expect(nodeOutput(result, 'Waiting').map((session) => session.id)).toEqual([sessionId]);
      expect(nodeOutput(result, 'Grant')[0]).toMatchObject({ id: sessionId, status: 'open', total: 3, totalExact: '3', remaining: 3, decisionNote: 'Three dollars will do' });
      expect(await sessionOf(sessionId)).toMatchObject({ status: 'open', total: 3, spent: 0 });
    },
    EXECUTION_TIMEOUT_MS,
  );

  it(
    'pays $1 naming the budget, which then shows spent 1 and remaining 2',
    async () => {
      const before = await balances();
      const from = proxy.exchanges.length;
      const result = await execute(WORKFLOW_IDS.pay);
      expect(nodeOutput(result, 'Pay')[0]).toMatchObject({ status: 'settled', amount_exact: '1' });
      expect(nodeOutput(result, 'Check budget')[0]).toMatchObject({ session_id: sessionId, status: 'open', total: 3, spent: 1, spent_exact: '1', remaining: 2, remaining_exact: '2' });
      expect(paymentCalls(from).map((call) => call.status)).toEqual([200]);

      const after = await balances();
      expect(before.payer - after.payer).toBe(ONE_DOLLAR);
      expect(after.payee - before.payee).toBe(ONE_DOLLAR);
      expect(await sessionOf(sessionId)).toMatchObject({ status: 'open', spent: 1, remaining: 2 });
    },
    EXECUTION_TIMEOUT_MS,
  );

  it(
    'revokes the budget with the owner credential; the next payment naming it is refused, says why, and moves nothing',
    async () => {
      const revoked = await execute(WORKFLOW_IDS.revoke);
      expect(nodeOutput(revoked, 'Open budgets').map((session) => session.id)).toEqual([sessionId]);
      expect(nodeOutput(revoked, 'Revoke')[0]).toMatchObject({ id: sessionId, status: 'closed', closedReason: 'revoked', spent: 1 });

      const before = await balances();
      const from = proxy.exchanges.length;
      const result = await execute(WORKFLOW_IDS.pay);
      const [refused] = nodeOutput(result, 'Pay');
      expect(refused).toEqual({
        error: expect.stringMatching(/^POLICY_VIOLATION: The budget is closed: nothing can be charged to it\. \(SESSION_NOT_OPEN; payment intent [0-9a-f-]{36}\)$/),
        http_status: 422,
        hint: expect.stringMatching(/^The budget named in Budget \(Session ID\) refused the payment: .* Nothing moved\. Budget → Get shows where it stands\.$/),
      });
      expect(nodeOutput(result, 'Check budget')[0]).toMatchObject({
        session_id: sessionId,
        status: 'closed',
        closed_reason: 'revoked',
        spent: 1,
        message: 'Closed (revoked): payments can no longer name it. Request a new budget if the task needs more.',
      });
      expect(paymentCalls(from).map((call) => call.status)).toEqual([422]);

      expect(await balances()).toEqual(before);
      expect(await sessionOf(sessionId)).toMatchObject({ status: 'closed', closedReason: 'revoked', spent: 1 });
    },
    EXECUTION_TIMEOUT_MS,
  );

  it('leaves the ledger balanced', async () => {
    expect((await verifyLedger(env.testApp.deps.db.prisma)).problems).toEqual([]);
  });
});
