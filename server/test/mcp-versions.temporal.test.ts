/**
 * The MCP endpoint in both protocol generations it serves: the official v2 client pinned to
 * 2026-07-28 (server/discover, per-request envelope, no session) and speaking 2025-11-25
 * (initialize), against one set of tool definitions. A real Temporal dev server runs each
 * payment's workflow; every test that moves money checks the ledger.
 *
 * A payment above the approval threshold comes back as a task, polled to completion with the
 * official tasks client (@modelcontextprotocol/ext-tasks) after the owner approves it. For
 * 2026-07-28 that client needs a raw request path (the SDK client rejects `resultType: "task"`
 * on tools/call), which `rawDispatch` below provides over plain HTTP.
 */
import { randomUUID } from 'node:crypto';
import { Client, ProtocolError, StreamableHTTPClientTransport, type CallToolResult, type Tool } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, toolDeclarationFromMcpTool, type RawClientDispatch } from '@modelcontextprotocol/ext-tasks/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PrismaClient } from '@purser/db';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { startTemporalTestEnv, type TemporalTestEnv } from './support/temporal-env';
import { AGENT_API, createFundedAgent, expectLedgerConsistent, ledgerBalance, ownerCall, type TestAgent } from './support/x402-fixtures';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const VERSIONS = [MODERN, LEGACY] as const;
type Version = (typeof VERSIONS)[number];
const TOOL_NAMES = ['get_balance', 'get_budget', 'get_info', 'list_transactions', 'make_payment', 'request_budget', 'x402_fetch', 'x402_proxy', 'x402_requirements', 'x402_sign_payment'];

let env: TemporalTestEnv;
let prisma: PrismaClient;
let owner: SignedUpOwner;
let appUrl: string;

beforeAll(async () => {
  env = await startTemporalTestEnv({ agentRateLimitPerMinute: 10_000 });
  prisma = env.testApp.deps.db.prisma;
  appUrl = await env.testApp.app.listen({ host: '127.0.0.1', port: 0 });
  owner = await signUpTestOwner(env.testApp.app, prisma);
  expect((await ownerCall(env.testApp.app, owner, 'POST', '/api/v1/wallet/top-up', { amount: 10_000 })).statusCode).toBe(200);
}, 300_000);

afterAll(async () => {
  await env?.close();
});

const mcpUrl = () => new URL(`${appUrl}${AGENT_API}/mcp`);

async function connect(agent: TestAgent, version: Version): Promise<Client> {
  const client = new Client({ name: 'purser-test', version: '1.0.0' }, version === MODERN ? { versionNegotiation: { mode: { pin: MODERN } } } : {});
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { requestInit: { headers: agent.headers } }));
  expect(client.getNegotiatedProtocolVersion()).toBe(version);
  return client;
}

const fundedAgent = (options: { fund: number; approvalThreshold?: number }) => createFundedAgent(env.testApp.app, owner, { ...options, maxTransaction: 10 });

/** One 2026-07-28 JSON-RPC request over plain HTTP, with the standard headers the protocol asks for. */
function rawDispatchFor(agent: TestAgent): RawClientDispatch {
  return async (request, options) => {
    const message = request as { method: string; params?: { name?: string } };
    const response = await fetch(mcpUrl(), {
      method: 'POST',
      headers: {
        ...agent.headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': message.method,
        ...(message.method === 'tools/call' && message.params?.name ? { 'mcp-name': message.params.name } : {}),
        ...options?.context?.headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), ...message }),
      signal: options?.signal,
    });
    const body = (await response.json()) as { result?: never; error?: { code: number; message: string } };
    return body.error ? { kind: 'error', error: body.error } : { kind: 'result', result: body.result! };
  };
}

function taskSession(client: Client, agent: TestAgent, version: Version) {
  const endpointId = `purser-${agent.id}-${version}`;
  if (version === LEGACY) return createTaskSessionFromClient(client, { endpointId });
  return createTaskSessionFromClient(client, {
    endpointId,
    rawDispatch: rawDispatchFor(agent),
    v2RequestFraming: { protocolVersion: MODERN, clientInfo: { name: 'purser-test', version: '1.0.0' }, clientCapabilities: {} },
  });
}

const text = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');

describe.each(VERSIONS)('MCP %s', (version) => {
  it('lists every tool with a title, annotations and an output schema, and pays once per idempotency key', async () => {
    const agent = await fundedAgent({ fund: 20 });
    const client = await connect(agent, version);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
      for (const tool of tools) {
        expect(tool.title, tool.name).toBeTruthy();
        expect(tool.description?.length, tool.name).toBeGreaterThan(40);
        expect(tool.outputSchema, tool.name).toMatchObject({ type: 'object' });
        expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: expect.any(Boolean), destructiveHint: expect.any(Boolean), idempotentHint: expect.any(Boolean) });
      }
      const byName = (name: string) => tools.find((tool) => tool.name === name)!;
      for (const read of ['get_balance', 'get_budget', 'get_info', 'list_transactions']) expect(byName(read).annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      for (const paying of ['make_payment', 'x402_sign_payment', 'x402_fetch']) {
        expect(byName(paying).annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
        expect(byName(paying).inputSchema.properties, paying).toHaveProperty('idempotency_key');
      }
      expect(byName('make_payment').outputSchema?.required).toEqual(expect.arrayContaining(['intent_id', 'status', 'amount']));

      const before = await ledgerBalance(prisma, agent.id);
      const key = `order-${randomUUID()}`;
      const payment = { amount: 1.5, to_address: 'merchant-42', description: 'Dataset licence', category: 'data', idempotency_key: key };
      const [first, again] = await env.runWorker(async () => [
        (await client.callTool({ name: 'make_payment', arguments: payment })) as CallToolResult,
        (await client.callTool({ name: 'make_payment', arguments: payment })) as CallToolResult,
      ]);
      expect(first.isError, text(first)).toBeFalsy();
      expect(first.structuredContent).toMatchObject({ status: 'settled', amount: 1.5, to_address: 'merchant-42', rail: 'ledger' });
      expect(again.structuredContent).toEqual(first.structuredContent);
      expect(await prisma.paymentIntent.count({ where: { agentId: agent.id, idempotencyKey: key } })).toBe(1);
      expect(await ledgerBalance(prisma, agent.id)).toBe(before - 1_500_000n);

      // The same key with another payment is refused, as REST answers it; nothing moves.
      const conflict = (await client.callTool({ name: 'make_payment', arguments: { ...payment, amount: 2 } })) as CallToolResult;
      expect(conflict.isError).toBe(true);
      expect(text(conflict)).toMatch(/^IDEMPOTENCY_CONFLICT: /);

      // Refusals and bad input are tool results the model can read, not protocol errors.
      const refused = (await env.runWorker(() => client.callTool({ name: 'make_payment', arguments: { amount: 11, to_address: 'merchant-42' } }))) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain('POLICY_VIOLATION');
      const invalid = (await client.callTool({ name: 'make_payment', arguments: { amount: 'ten', to_address: 'x' } })) as CallToolResult;
      expect(invalid).toMatchObject({ isError: true, content: [{ type: 'text', text: 'VALIDATION_FAILED: amount must be a positive number of dollars with at most 6 decimals' }] });
      expect(await ledgerBalance(prisma, agent.id)).toBe(before - 1_500_000n);

      // The structured answers are what the output schemas promise (the client checks them too).
      const listed = (await client.callTool({ name: 'list_transactions', arguments: {} })) as CallToolResult;
      expect((listed.structuredContent as { transactions: unknown[] }).transactions[0]).toMatchObject({ type: 'payment', amount: 1.5, category: 'data' });
      const info = (await client.callTool({ name: 'get_info', arguments: {} })) as CallToolResult;
      expect(info.structuredContent).toMatchObject({ did: agent.did, spending: { spent_last_24h: 1.5 } });
    } finally {
      await client.close();
    }
    await expectLedgerConsistent(prisma);
  });

  it('answers a payment above the approval threshold as a task that completes with the settled payment once the owner approves it', async () => {
    const agent = await fundedAgent({ fund: 30, approvalThreshold: 3 });
    const stranger = await fundedAgent({ fund: 1 });
    const client = await connect(agent, version);
    const session = taskSession(client, agent, version);
    try {
      const before = await ledgerBalance(prisma, agent.id);
      const makePayment = (await client.listTools()).tools.find((tool: Tool) => tool.name === 'make_payment')!;
      const key = `gpu-${randomUUID()}`;
      const execution = await env.runWorker(() =>
        session.callTool('make_payment', { amount: 5, to_address: 'gpu.example.com', description: 'GPU hours', idempotency_key: key }, {
          declaration: toolDeclarationFromMcpTool(makePayment),
          task: { preference: 'prefer' },
        }),
      );
      expect(execution.kind).toBe('task');
      const taskId = execution.handle!.taskId;
      const intent = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: taskId }, select: { agentId: true, status: true, idempotencyKey: true } });
      expect(intent).toEqual({ agentId: agent.id, status: 'pending_approval', idempotencyKey: key });
      expect(await session.task(taskId).snapshot()).toMatchObject({ taskId, status: 'working', statusMessage: expect.stringContaining('waits for the owner') });

      // Another agent cannot read the task: it does not exist for them.
      await expectTaskNotFound(stranger, version, taskId);

      const approved = await ownerCall(env.testApp.app, owner, 'POST', `/api/v1/intents/${taskId}/approve`, { reason: 'fine' });
      expect(approved.statusCode, approved.body).toBe(200);
      const { outcome } = await env.runWorker(() => execution.settle());
      expect(outcome.status).toBe('completed');
      const result = (outcome as { result: CallToolResult }).result;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ intent_id: taskId, status: 'settled', amount: 5, to_address: 'gpu.example.com' });
      expect(await ledgerBalance(prisma, agent.id)).toBe(before - 5_000_000n);

      // The same key again: the same payment, already settled, and no second one.
      const again = (await client.callTool({ name: 'make_payment', arguments: { amount: 5, to_address: 'gpu.example.com', description: 'GPU hours', idempotency_key: key } })) as CallToolResult;
      expect(again.structuredContent).toMatchObject({ intent_id: taskId, status: 'settled' });
      expect(await ledgerBalance(prisma, agent.id)).toBe(before - 5_000_000n);
    } finally {
      await session.close();
      await client.close();
    }
    await expectLedgerConsistent(prisma);
  });

  it('completes a task with the refusal when the owner rejects the payment', async () => {
    const agent = await fundedAgent({ fund: 30, approvalThreshold: 3 });
    const client = await connect(agent, version);
    const session = taskSession(client, agent, version);
    try {
      const before = await ledgerBalance(prisma, agent.id);
      const makePayment = (await client.listTools()).tools.find((tool: Tool) => tool.name === 'make_payment')!;
      const execution = await env.runWorker(() =>
        session.callTool('make_payment', { amount: 4, to_address: 'gpu.example.com', idempotency_key: randomUUID() }, {
          declaration: toolDeclarationFromMcpTool(makePayment),
          task: { preference: 'prefer' },
        }),
      );
      expect(execution.kind).toBe('task');
      const rejected = await ownerCall(env.testApp.app, owner, 'POST', `/api/v1/intents/${execution.handle!.taskId}/reject`, { reason: 'not this month' });
      expect(rejected.statusCode, rejected.body).toBe(200);
      const { outcome } = await env.runWorker(() => execution.settle());
      expect(outcome.status).toBe('completed');
      const result = (outcome as { result: CallToolResult }).result;
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/^PAYMENT_DECLINED: The owner rejected the payment: not this month/);
      expect(await ledgerBalance(prisma, agent.id)).toBe(before);
    } finally {
      await session.close();
      await client.close();
    }
  });
});

describe('MCP without tasks', () => {
  it('answers a payment that waits for the owner with its pending view to a 2026-07-28 client that does not take tasks', async () => {
    const agent = await fundedAgent({ fund: 30, approvalThreshold: 3 });
    const client = await connect(agent, MODERN);
    try {
      const waiting = (await env.runWorker(() => client.callTool({ name: 'make_payment', arguments: { amount: 4, to_address: 'gpu.example.com' } }))) as CallToolResult;
      expect(waiting.isError).toBeFalsy();
      expect(waiting.structuredContent).toMatchObject({ status: 'pending_approval', message: expect.stringContaining('approve') });
    } finally {
      await client.close();
    }
  });

  it('refuses task methods to a 2026-07-28 client that does not declare the tasks extension', async () => {
    const agent = await fundedAgent({ fund: 1 });
    const client = await connect(agent, MODERN);
    try {
      await expect(client.request({ method: 'tasks/get', params: { taskId: randomUUID() } }, z.looseObject({}))).rejects.toMatchObject({ code: -32021 });
    } finally {
      await client.close();
    }
  });
});

async function expectTaskNotFound(agent: TestAgent, version: Version, taskId: string): Promise<void> {
  if (version === MODERN) {
    const answer = await rawDispatchFor(agent)(
      {
        method: 'tasks/get',
        params: {
          taskId,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientInfo': { name: 'stranger', version: '1.0.0' },
            'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
          },
        },
      },
      { context: { headers: { 'mcp-name': taskId } } },
    );
    expect(answer).toMatchObject({ kind: 'error', error: { code: -32602, message: expect.stringContaining('no such payment task') } });
    return;
  }
  const client = await connect(agent, LEGACY);
  try {
    const read = client.request({ method: 'tasks/get', params: { taskId } }, z.looseObject({}));
    await expect(read).rejects.toBeInstanceOf(ProtocolError);
    await expect(read).rejects.toMatchObject({ code: -32602 });
  } finally {
    await client.close();
  }
}
