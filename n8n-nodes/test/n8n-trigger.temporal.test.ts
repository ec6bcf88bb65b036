/**
 * The Purser Trigger in a real n8n (2.8.4, offline) running as a server (`n8n start`), against a
 * started product: activating the workflow registers its webhook URL with Purser (owner API),
 * Purser's signed deliveries start the workflow, forged ones are refused before anything runs,
 * and deactivating the workflow deletes the endpoint. The workflow reports each event it
 * receives to a local endpoint, so the test sees exactly what started it.
 *
 * The first run installs n8n into the cache (scripts/n8n.mjs): minutes, hence the long hooks.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLedgerUsdc, startTemporalTestEnv, verifyLedger, type PayingAgent, type TemporalTestEnv } from '@purser/server/testing';
import { signDelivery } from '../nodes/PurserTrigger/verifySignature';
import { packPackage, startN8n, type N8n, type N8nServer } from './support/n8n';
import { agentCall, signUpOwner, type TestOwner } from './support/purser-owner';
import { startRequestSink, type RequestSink } from './support/request-sink';
import { node, PURSER_TRIGGER, workflowOf, type Credentials } from './support/workflows';

const SETUP_TIMEOUT_MS = 30 * 60_000;
const TEST_TIMEOUT_MS = 240_000;
const OWNER: Credentials = { purserOwnerApi: { id: 'purserOwnerCred1', name: 'Purser owner' } };
const WORKFLOW_ID = 'purserTriggerWf1';
const WEBHOOK_ID = randomUUID();

interface PurserEvent {
  id: string;
  type: string;
  data: { intent: { id: string; status: string; amountExact: string } };
}

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
}

let env: TemporalTestEnv;
let n8n: N8n;
let server: N8nServer;
let sink: RequestSink;
let owner: TestOwner;
let payer: PayingAgent;
let payee: PayingAgent;
let workDir: string;

const webhookUrl = () => `${server.url}/webhook/${WEBHOOK_ID}/webhook`;
const endpoints = async () => (await owner.call<{ endpoints: Endpoint[] }>('GET', '/webhooks')).endpoints;

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'purser-n8n-trigger-'));
  const n8nReady = packPackage(workDir).then((file) => startN8n(file));
  n8nReady.catch(() => undefined);

  env = await startTemporalTestEnv({ agentRateLimitPerMinute: 10_000 });
  const productUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpOwner(env);
  payer = await owner.createAgent('n8n trigger payer');
  payee = await owner.createAgent('n8n trigger payee');
  await owner.fund(payer, 50);
  sink = await startRequestSink();

  n8n = await n8nReady;
  await n8n.importCredentials([{ id: OWNER.purserOwnerApi!.id, name: OWNER.purserOwnerApi!.name, type: 'purserOwnerApi', data: { baseUrl: productUrl, apiKey: owner.apiKey } }]);
  const trigger = node('On settlement', PURSER_TRIGGER, 1, { events: ['settlement.completed'] }, { credentials: OWNER, webhookId: WEBHOOK_ID });
  const report = node('Report', 'n8n-nodes-base.httpRequest', 4.2, {
    method: 'POST',
    url: sink.url,
    sendBody: true,
    specifyBody: 'json',
    jsonBody: '={{ JSON.stringify($json) }}',
    options: {},
  });
  await n8n.importWorkflows([workflowOf(WORKFLOW_ID, 'Purser: on settlement', [trigger, report], [['On settlement', 'Report']])]);
  server = await n8n.serve();
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await server?.stop();
  n8n?.close();
  await sink?.close();
  await env?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}, 120_000);

describe('the Purser Trigger in a real n8n', () => {
  it(
    'registers its webhook URL with Purser for the chosen events when the workflow is activated',
    async () => {
      expect(await endpoints()).toEqual([]);
      await server.activate(WORKFLOW_ID);
      expect(await endpoints()).toEqual([expect.objectContaining({ url: webhookUrl(), events: ['settlement.completed'], enabled: true })]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'starts the workflow with settlement.completed for a payment the agent made through the agent API',
    async () => {
      const [payerBefore, payeeBefore] = [await agentLedgerUsdc(env.testApp.app, payer), await agentLedgerUsdc(env.testApp.app, payee)];
      const event = await env.runWorker(async () => {
        const paid = await agentCall(env, payer, 'POST', '/payment', {
          payload: { amount: 1.25, currency: 'USDC', to_address: payee.walletAddress, description: 'Watched by n8n' },
          idempotencyKey: `n8n-trigger-${randomUUID()}`,
        });
        expect(paid.statusCode, JSON.stringify(paid.body)).toBe(200);
        // Deliveries run on the payments worker, so it keeps running until n8n reports the event.
        return sink.waitFor<PurserEvent>((body) => body.type === 'settlement.completed' && body.data.intent.id === paid.body.intent_id, 90_000);
      });
      expect(event.data.intent).toMatchObject({ status: 'settled', amountExact: '1.25' });

      // Exactly one execution, started by the delivery, and Purser's log says n8n took it.
      const executions = await server.executions(WORKFLOW_ID);
      expect(executions.map(({ status, mode }) => ({ status, mode }))).toEqual([{ status: 'success', mode: 'webhook' }]);
      const [endpoint] = await endpoints();
      const { deliveries } = await owner.call<{ deliveries: Array<{ eventId: string; status: string; lastStatusCode: number }> }>('GET', `/webhooks/${endpoint!.id}/deliveries`);
      expect(deliveries.find((delivery) => delivery.eventId === event.id)).toMatchObject({ status: 'succeeded', lastStatusCode: 200 });

      expect(payerBefore - (await agentLedgerUsdc(env.testApp.app, payer))).toBe(1_250_000n);
      expect((await agentLedgerUsdc(env.testApp.app, payee)) - payeeBefore).toBe(1_250_000n);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'refuses forged deliveries with 401 and starts nothing',
    async () => {
      const executionsBefore = (await server.executions(WORKFLOW_ID)).length;
      const reported = sink.bodies.length;
      const body = JSON.stringify({
        id: `evt_${randomUUID()}`,
        type: 'settlement.completed',
        createdAt: new Date().toISOString(),
        data: { intent: { id: randomUUID(), status: 'settled', amountExact: '1000000' } },
      });
      const timestamp = String(Math.floor(Date.now() / 1000));
      const otherSecret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
      const attempts: Array<Record<string, string>> = [
        // Signed with a secret that is not the endpoint's.
        { 'webhook-id': 'evt_forged', 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signDelivery(otherSecret, 'evt_forged', timestamp, Buffer.from(body))}` },
        // Not signed at all.
        {},
      ];
      for (const headers of attempts) {
        const response = await fetch(webhookUrl(), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
        expect(response.status, await response.text()).toBe(401);
      }
      // n8n saves executions as they finish; give a wrongly started one the time to show up.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(await server.executions(WORKFLOW_ID)).toHaveLength(executionsBefore);
      expect(sink.bodies).toHaveLength(reported);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'deletes its endpoint at Purser when the workflow is deactivated',
    async () => {
      await server.deactivate(WORKFLOW_ID);
      expect(await endpoints()).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it('leaves the ledger balanced', async () => {
    expect((await verifyLedger(env.testApp.deps.db.prisma)).problems).toEqual([]);
  });
});
