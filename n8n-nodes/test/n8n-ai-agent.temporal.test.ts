/**
 * The Purser node as a tool of n8n's AI Agent, in a real n8n (2.8.4, offline), against a started
 * product. The model is scripted (test/support/scripted-model.ts) behind n8n's own OpenAI Chat
 * Model node: it reads the tool n8n offers it, calls it to pay, calls it again with the same
 * arguments (as a model unsure whether its first call went through would), and answers. The
 * payment happens once, and the ledger shows it.
 *
 * The first run installs n8n into the cache (scripts/n8n.mjs): minutes, hence the long hooks.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentLedgerUsdc, payerAndPayee, startTemporalTestEnv, verifyLedger, type PayingAgent, type TemporalTestEnv } from '@purser/server/testing';
import { nodeOutput, packPackage, startN8n, type N8n } from './support/n8n';
import { startScriptedModel, type ChatRequest, type ScriptedModel } from './support/scripted-model';
import { node } from './support/workflows';

const SETUP_TIMEOUT_MS = 30 * 60_000;
const EXECUTION_TIMEOUT_MS = 240_000;
const WORKFLOW_ID = 'purserAiAgent001';
const AGENT_CREDENTIAL = { purserApi: { id: 'purserAgentCred1', name: 'Purser agent' } };
const MODEL_CREDENTIAL = { openAiApi: { id: 'scriptedModel001', name: 'Scripted model' } };

let env: TemporalTestEnv;
let n8n: N8n;
let model: ScriptedModel;
let payer: PayingAgent;
let payee: PayingAgent;
let workDir: string;

const toolResults = (request: ChatRequest) => request.messages.filter((message) => message.role === 'tool');

/** Pay 1.25, pay it again with the same arguments, then say so. */
function script(request: ChatRequest) {
  const done = toolResults(request).length;
  if (done < 2) return { callTool: 0, arguments: { amount: 1.25 } };
  return { answer: 'Paid the supplier 1.25 USDC.' };
}

function workflow() {
  const start = node('Start', 'n8n-nodes-base.manualTrigger', 1, {});
  const agent = node('AI Agent', '@n8n/n8n-nodes-langchain.agent', 3.1, { promptType: 'define', text: 'Pay the supplier their 1.25 USDC invoice.', options: {} });
  const chatModel = node(
    'Scripted model',
    '@n8n/n8n-nodes-langchain.lmChatOpenAi',
    1.2,
    { model: { __rl: true, mode: 'id', value: 'gpt-4o-mini' }, options: {} },
    { credentials: MODEL_CREDENTIAL },
  );
  const tool = node(
    'Pay supplier',
    'n8n-nodes-purser.purserTool',
    1,
    {
      descriptionType: 'auto',
      resource: 'payment',
      operation: 'create',
      amount: "={{ $fromAI('amount', 'How many dollars to pay', 'number') }}",
      toAddress: payee.walletAddress,
      currency: 'USDC',
      options: { description: 'Supplier invoice, paid by the AI Agent' },
    },
    { credentials: AGENT_CREDENTIAL },
  );
  const nodes = [start, agent, chatModel, tool].map((entry, index) => ({ ...entry, position: [index * 220, 0] }));
  return {
    id: WORKFLOW_ID,
    name: 'Purser: an AI Agent pays',
    active: false,
    nodes,
    connections: {
      Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
      'Scripted model': { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
      'Pay supplier': { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] },
    },
    settings: { executionOrder: 'v1' },
  };
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'purser-n8n-ai-'));
  const n8nReady = packPackage(workDir).then((file) => startN8n(file));
  n8nReady.catch(() => undefined);

  env = await startTemporalTestEnv({ agentRateLimitPerMinute: 10_000 });
  const productUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  ({ payer, payee } = await payerAndPayee(env, { payer: 'n8n AI payer', payee: 'n8n AI supplier' }));
  model = await startScriptedModel(script);

  n8n = await n8nReady;
  await n8n.importCredentials([
    { ...AGENT_CREDENTIAL.purserApi, type: 'purserApi', data: { baseUrl: productUrl, agentDid: payer.did, apiKey: payer.key } },
    { ...MODEL_CREDENTIAL.openAiApi, type: 'openAiApi', data: { apiKey: `sk-test-${randomUUID()}`, url: model.url } },
  ]);
  await n8n.importWorkflows([workflow()]);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  n8n?.close();
  await model?.close();
  await env?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}, 120_000);

describe("the Purser node as a tool of n8n's AI Agent", () => {
  it(
    'offers the model a payment tool it can act on, and pays once when the model calls it twice with the same arguments',
    async () => {
      const [payerBefore, payeeBefore] = [await agentLedgerUsdc(env.testApp.app, payer), await agentLedgerUsdc(env.testApp.app, payee)];
      const { code, result, output } = await env.runWorker(() => n8n.execute(WORKFLOW_ID));
      expect(code, output).toBe(0);
      expect(nodeOutput(result, 'AI Agent')[0]).toMatchObject({ output: 'Paid the supplier 1.25 USDC.' });

      // What the model was offered: one tool, described by the operation's action, asking for the amount.
      const [first] = model.requests;
      expect(first!.tools).toHaveLength(1);
      const offered = first!.tools![0]!.function;
      expect(offered.description).toBe('Pay an address from the agent wallet within its spending rules in Purser');
      expect(Object.keys(offered.parameters.properties ?? {})).toEqual(['amount']);

      // What the tool answered: the same settled payment both times.
      const answers = toolResults(model.requests.at(-1)!).map((message) => JSON.parse(String(message.content)) as unknown);
      expect(answers).toHaveLength(2);
      const payments = answers.map((answer) => (Array.isArray(answer) ? answer[0] : answer) as Record<string, unknown>);
      for (const payment of payments) expect(payment).toMatchObject({ status: 'settled', amount_exact: '1.25' });
      expect(payments[1]!.intent_id).toBe(payments[0]!.intent_id);

      expect(payerBefore - (await agentLedgerUsdc(env.testApp.app, payer))).toBe(1_250_000n);
      expect((await agentLedgerUsdc(env.testApp.app, payee)) - payeeBefore).toBe(1_250_000n);
    },
    EXECUTION_TIMEOUT_MS,
  );

  it('leaves the ledger balanced', async () => {
    expect((await verifyLedger(env.testApp.deps.db.prisma)).problems).toEqual([]);
  });
});
