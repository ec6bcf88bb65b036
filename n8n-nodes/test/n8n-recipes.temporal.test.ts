/**
 * The n8n recipe of the docs (Workflow recipes → n8n → The HTTP Request node) in a real n8n
 * (2.8.4, offline), against a started product: the workflow JSON is taken from the markdown,
 * given the Purser URL, the agent's DID and a payee in place of the page's examples, imported
 * with `n8n import:workflow` beside a Header Auth credential made as the recipe says, and run
 * with `n8n execute`. Only n8n's built-in nodes run; the money is checked in the ledger.
 *
 * The first run installs n8n into the cache (scripts/n8n.mjs): minutes, hence the long hooks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  agentLedgerUsdc,
  atomicDollars,
  docRecipe,
  EXAMPLE_DID,
  EXAMPLE_URL,
  fillIn,
  payerAndPayee,
  startTemporalTestEnv,
  verifyLedger,
  type PayingAgent,
  type TemporalTestEnv,
} from '@purser/server/testing';
import { nodeOutput, packPackage, startN8n, type N8n } from './support/n8n';
import { startRecordingProxy, type RecordingProxy } from './support/recording-proxy';

/** First run: n8n's install (~3-15 min on a busy machine) plus the product. */
const SETUP_TIMEOUT_MS = 30 * 60_000;
const EXECUTION_TIMEOUT_MS = 240_000;
const WORKFLOW_ID = 'purserRecipeHttp';
/** The payee address of the recipe's example invoice. */
const EXAMPLE_PAYEE = '0x000000000000000000000000000000000000dEaD';


interface WorkflowNode {
  name: string;
  type: string;
  parameters: Record<string, unknown>;
  credentials?: Record<string, { id: string; name: string }>;
}

let env: TemporalTestEnv;
let n8n: N8n;
let proxy: RecordingProxy;
let payer: PayingAgent;
let payee: PayingAgent;
let workDir: string;
let workflow: { name: string; nodes: WorkflowNode[]; connections: object };



/** The invoice the recipe's Invoice node outputs. */
function invoice(): { invoice_id: string; amount: number; pay_to: string } {
  const node = workflow.nodes.find((candidate) => candidate.name === 'Invoice');
  return JSON.parse(String(node?.parameters.jsonOutput)) as { invoice_id: string; amount: number; pay_to: string };
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'purser-n8n-recipes-'));
  // n8n's install (first run) and the build overlap with the product's start.
  const n8nReady = packPackage(workDir).then((file) => startN8n(file));
  n8nReady.catch(() => undefined);

  env = await startTemporalTestEnv({ agentRateLimitPerMinute: 10_000 });
  const { app } = env.testApp;
  const productUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  proxy = await startRecordingProxy(productUrl);

  ({ payer, payee } = await payerAndPayee(env, { payer: 'n8n recipe payer', payee: 'n8n recipe payee' }));

  // The recipe as the page shows it, with this product, this agent and a payee whose ledger we can read.
  const recipe = await docRecipe('workflows', 'The HTTP Request node', 'json');
  workflow = JSON.parse(fillIn(recipe, { [EXAMPLE_URL]: proxy.url, [EXAMPLE_DID]: payer.did, [EXAMPLE_PAYEE]: payee.walletAddress })) as typeof workflow;

  // Step 1 of the recipe: a Header Auth credential named Authorization with `Bearer <key>`.
  // The workflow's nodes name the credential they use; it is imported under that id and name.
  const references = workflow.nodes.flatMap((node) => Object.entries(node.credentials ?? {}));
  expect(references.length).toBeGreaterThan(0);
  expect(new Set(references.map(([type, { id, name }]) => `${type} ${id} ${name}`)).size).toBe(1);
  const [type, { id, name }] = references[0]!;
  expect(type).toBe('httpHeaderAuth');

  n8n = await n8nReady;
  await n8n.importCredentials([{ id, name, type, data: { name: 'Authorization', value: `Bearer ${payer.key}` } }]);
  // Import needs an id for `n8n execute --id`; the pasted recipe gets one from the editor.
  await n8n.importWorkflows([{ ...workflow, id: WORKFLOW_ID, active: false }]);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  n8n?.close();
  await proxy?.close();
  await env?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}, 120_000);

const execute = () => env.runWorker(() => n8n.execute(WORKFLOW_ID));

describe("the docs' n8n HTTP Request workflow in a real n8n", () => {
  let firstIntentId: string;

  it(
    'reads the balance, sees that it covers the invoice, and pays exactly the invoice once',
    async () => {
      const { invoice_id: invoiceId, amount } = invoice();
      const [payerBefore, payeeBefore] = [await agentLedgerUsdc(env.testApp.app, payer), await agentLedgerUsdc(env.testApp.app, payee)];
      const { code, result, output } = await execute();
      expect(code, output).toBe(0);
      expect(result.status).toBe('success');

      const [balance] = nodeOutput(result, 'Check balance') as Array<{ did: string; balances: { USDC: { ledger_exact: string } } }>;
      expect(balance!.did).toBe(payer.did);
      expect(atomicDollars(balance!.balances.USDC.ledger_exact)).toBe(payerBefore);
      expect(nodeOutput(result, 'Enough funds?')).toHaveLength(1);

      const [paid] = nodeOutput(result, 'Pay invoice') as Array<{ statusCode: number; body: Record<string, unknown> }>;
      expect(paid!.statusCode, JSON.stringify(paid)).toBe(200);
      expect(paid!.body).toMatchObject({ status: 'settled', currency: 'USDC', to_address: payee.walletAddress });
      expect(atomicDollars(String(paid!.body.amount_exact))).toBe(atomicDollars(String(amount)));
      firstIntentId = String(paid!.body.intent_id);

      // The ledger moved exactly the invoice's amount, from the payer to the payee.
      const moved = atomicDollars(String(amount));
      expect(payerBefore - (await agentLedgerUsdc(env.testApp.app, payer))).toBe(moved);
      expect((await agentLedgerUsdc(env.testApp.app, payee)) - payeeBefore).toBe(moved);

      // On the wire: the balance read, then one payment under the invoice's key.
      const calls = proxy.exchanges.map(({ method, path, idempotencyKey, status }) => ({ method, path, idempotencyKey, status }));
      expect(calls).toEqual([
        { method: 'GET', path: '/functions/v1/mcp-server/balance', idempotencyKey: undefined, status: 200 },
        { method: 'POST', path: '/functions/v1/mcp-server/payment', idempotencyKey: `invoice-${invoiceId}`, status: 200 },
      ]);
    },
    EXECUTION_TIMEOUT_MS,
  );

  it(
    'does not pay the same invoice twice when the workflow runs again',
    async () => {
      expect(firstIntentId).toBeDefined();
      const [payerBefore, payeeBefore] = [await agentLedgerUsdc(env.testApp.app, payer), await agentLedgerUsdc(env.testApp.app, payee)];
      const { code, result, output } = await execute();
      expect(code, output).toBe(0);
      const [paid] = nodeOutput(result, 'Pay invoice') as Array<{ statusCode: number; body: Record<string, unknown>; headers: Record<string, string> }>;
      expect(paid).toMatchObject({ statusCode: 200, body: { intent_id: firstIntentId, status: 'settled' }, headers: { 'idempotent-replayed': 'true' } });
      expect(await agentLedgerUsdc(env.testApp.app, payer)).toBe(payerBefore);
      expect(await agentLedgerUsdc(env.testApp.app, payee)).toBe(payeeBefore);
    },
    EXECUTION_TIMEOUT_MS,
  );

  it('leaves the ledger balanced', async () => {
    expect((await verifyLedger(env.testApp.deps.db.prisma)).problems).toEqual([]);
  });
});
