/**
 * request_budget while the owner decides (issue 43), with the official MCP clients:
 * - 2026-07-28: a client that opens URLs gets input_required with a URL-mode elicitation to the
 *   one-time approval link; the client's own retry (the SDK fulfils and retries by itself) waits
 *   for the owner and answers the session as granted, creating nothing more; a person who
 *   declines gets the waiting request; a forged or another agent's requestState is refused.
 * - 2025-11-25: a client that takes tasks polls a task (the session) to the owner's decision.
 * - A client that does neither gets the waiting request and its approval_url.
 */
import { randomUUID } from 'node:crypto';
import { Client, StreamableHTTPClientTransport, type CallToolResult, type Tool } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, toolDeclarationFromMcpTool } from '@modelcontextprotocol/ext-tasks/client';
import type { ServerContext } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentPaymentSessionView } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { budgetRoundCodec } from '../src/http/agent-api/mcp-budget-request';
import { createApiAgent, type ApiAgent } from './support/api-agents';
import { signUpTestOwner, type SignedUpOwner } from './support/owners';
import { listeningTestApp, type TestApp } from './support/test-app';

const AGENT_API = '/functions/v1/mcp-server';
const MODERN = '2026-07-28';
const DAY = 86_400_000;

let t: TestApp;
let prisma: PrismaClient;
let appUrl: string;
let owner: SignedUpOwner;

type TestAgent = ApiAgent;

beforeAll(async () => {
  const served = await listeningTestApp({ agentRateLimitPerMinute: 10_000 });
  t = served;
  appUrl = served.appUrl;
  prisma = t.deps.db.prisma;
  owner = await signUpTestOwner(t.app, prisma);
});

afterAll(async () => {
  await t?.cleanup();
});

const createAgent = (): Promise<TestAgent> => createApiAgent(t.app, owner);

const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();
const ASK = { total: 5, expires_at: inDays(2), reason: 'buy the ten papers for the review' };

/** The owner answers a request from the console's REST twin. */
async function decide(sessionId: string, body: object) {
  const response = await t.app.inject({ method: 'POST', url: `/api/v1/payment-sessions/${sessionId}/decide`, headers: owner.headers, payload: body });
  expect(response.statusCode, response.body).toBe(200);
}

const sessionsOf = (agent: TestAgent) => prisma.paymentSession.findMany({ where: { agentId: agent.id }, select: { id: true, status: true, totalUnits: true } });

interface Elicited {
  mode?: string;
  url?: string;
  message?: string;
}

/** A 2026-07-28 client that opens URLs: `onElicit` plays its person (and, here, the owner). */
async function modernClient(agent: TestAgent, onElicit: (params: Elicited) => Promise<{ action: 'accept' | 'decline' | 'cancel' }>): Promise<Client> {
  const client = new Client({ name: 'budget-host', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } }, versionNegotiation: { mode: { pin: MODERN } } });
  client.setRequestHandler('elicitation/create', async (request) => onElicit(request.params as Elicited));
  await client.connect(new StreamableHTTPClientTransport(new URL(`${appUrl}${AGENT_API}/mcp`), { requestInit: { headers: agent.headers } }));
  expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
  return client;
}

describe('MCP 2026-07-28: input_required with the approval link', () => {
  it('asks the person to open the link; the retry answers the session as the owner granted it, and creates nothing more', async () => {
    const agent = await createAgent();
    const elicited: Elicited[] = [];
    const client = await modernClient(agent, async (params) => {
      elicited.push(params);
      // The person opens the link; the owner lowers the budget to $3 there.
      const [asked] = await sessionsOf(agent);
      await decide(asked!.id, { approve: true, totalUsd: 3, note: 'three will do' });
      return { action: 'accept' };
    });
    try {
      const answer = (await client.callTool({ name: 'request_budget', arguments: ASK })) as CallToolResult;
      expect(answer.isError).toBeFalsy();
      expect(answer.structuredContent).toMatchObject({ status: 'open', total: 3, decision_note: 'three will do', reason: ASK.reason });
      expect(elicited).toHaveLength(1);
      expect(elicited[0]).toMatchObject({ mode: 'url', message: expect.stringContaining('5 USDC') });
      expect(elicited[0]!.url).toMatch(new RegExp(`^${appUrl}/approve/[A-Za-z0-9_-]{40,}$`));
      const sessions = await sessionsOf(agent);
      expect(sessions).toEqual([{ id: (answer.structuredContent as AgentPaymentSessionView).session_id, status: 'open', totalUnits: 3_000_000n }]);
    } finally {
      await client.close();
    }
  });

  it('waits on the retry for an owner who decides a moment later', async () => {
    const agent = await createAgent();
    const client = await modernClient(agent, async () => {
      const [asked] = await sessionsOf(agent);
      setTimeout(() => void decide(asked!.id, { approve: false, note: 'not this week' }), 1_500);
      return { action: 'accept' };
    });
    try {
      const answer = (await client.callTool({ name: 'request_budget', arguments: ASK })) as CallToolResult;
      expect(answer.structuredContent).toMatchObject({ status: 'rejected', decision_note: 'not this week' });
      expect(await sessionsOf(agent)).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('ends the wait at the expiry the request asked for, telling the agent nothing was granted', async () => {
    const agent = await createAgent();
    const client = await modernClient(agent, async () => ({ action: 'accept' }));
    try {
      // The round would wait 20 s for a decision; the request itself runs out in 2.
      const answer = (await client.callTool({ name: 'request_budget', arguments: { ...ASK, expires_at: new Date(Date.now() + 2_000).toISOString() } })) as CallToolResult;
      expect(answer.structuredContent).toMatchObject({ status: 'closed', closed_reason: 'expired', message: expect.stringContaining('nothing was granted') });
      expect(await sessionsOf(agent)).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('answers the waiting request at once when the person declines to open the link', async () => {
    const agent = await createAgent();
    const client = await modernClient(agent, async () => ({ action: 'decline' }));
    try {
      const answer = (await client.callTool({ name: 'request_budget', arguments: ASK })) as CallToolResult;
      expect(answer.structuredContent).toMatchObject({ status: 'requested', total: 5, message: expect.stringContaining('owner') });
      expect((await sessionsOf(agent)).map((session) => session.status)).toEqual(['requested']);
    } finally {
      await client.close();
    }
  });

  it('refuses a forged requestState, and one minted for another agent, creating nothing', async () => {
    const agent = await createAgent();
    const other = await createAgent();
    const othersRequest = await t.app.inject({ method: 'POST', url: `${AGENT_API}/budget/request`, headers: other.headers, payload: ASK });
    expect(othersRequest.statusCode, othersRequest.body).toBe(201);
    const othersSession = (othersRequest.json() as AgentPaymentSessionView).session_id;
    // The codec binds to the agent it was made for; the context it is handed is not read.
    const otherState = await budgetRoundCodec(t.deps.masterKey, other.id).mint({ sessionId: othersSession, round: 1 }, {} as ServerContext);
    const retry = (requestState: string) =>
      fetch(`${appUrl}${AGENT_API}/mcp`, {
        method: 'POST',
        headers: {
          ...agent.headers,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': MODERN,
          'mcp-method': 'tools/call',
          'mcp-name': 'request_budget',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: randomUUID(),
          method: 'tools/call',
          params: {
            name: 'request_budget',
            arguments: ASK,
            requestState,
            inputResponses: { approve: { action: 'accept' } },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': MODERN,
              'io.modelcontextprotocol/clientInfo': { name: 'forger', version: '1.0.0' },
              'io.modelcontextprotocol/clientCapabilities': { elicitation: { url: {} } },
            },
          },
        }),
      }).then(async (response) => (await response.json()) as { error?: { code: number }; result?: unknown });
    for (const state of [`v1.${Buffer.from(JSON.stringify({ p: { sessionId: othersSession, round: 1 }, exp: 9_999_999_999 })).toString('base64url')}.AAAA`, otherState]) {
      const answer = await retry(state);
      expect(answer.error?.code, JSON.stringify(answer)).toBe(-32602);
    }
    expect(await sessionsOf(agent)).toEqual([]);
    expect((await sessionsOf(other)).map((session) => session.status)).toEqual(['requested']);
  });

  it('gives a client that cannot open URLs the waiting request and its approval_url', async () => {
    const agent = await createAgent();
    const client = new Client({ name: 'plain-host', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${appUrl}${AGENT_API}/mcp`), { requestInit: { headers: agent.headers } }));
    try {
      const answer = (await client.callTool({ name: 'request_budget', arguments: ASK })) as CallToolResult;
      expect(answer.structuredContent).toMatchObject({ status: 'requested', approval_url: expect.stringMatching(new RegExp(`^${appUrl}/approve/`)) });
    } finally {
      await client.close();
    }
  });
});

describe('MCP 2025-11-25: a task to poll', () => {
  it('answers a client that takes tasks with the request as a task, completed with the session once the owner grants it', async () => {
    const agent = await createAgent();
    const stranger = await createAgent();
    const client = new Client({ name: 'legacy-host', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${appUrl}${AGENT_API}/mcp`), { requestInit: { headers: agent.headers } }));
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    const tasks = createTaskSessionFromClient(client, { endpointId: `budget-${agent.id}` });
    try {
      const tool = (await client.listTools()).tools.find((listed: Tool) => listed.name === 'request_budget')!;
      expect(tool.execution).toEqual({ taskSupport: 'optional' });
      const execution = await tasks.callTool('request_budget', ASK, { declaration: toolDeclarationFromMcpTool(tool), task: { preference: 'prefer' } });
      expect(execution.kind).toBe('task');
      const taskId = execution.handle!.taskId;
      expect(await sessionsOf(agent)).toEqual([{ id: taskId, status: 'requested', totalUnits: 5_000_000n }]);
      expect(await tasks.task(taskId).snapshot()).toMatchObject({ taskId, status: 'working' });

      // Another agent's client cannot read it.
      const strangerClient = new Client({ name: 'stranger', version: '1.0.0' });
      await strangerClient.connect(new StreamableHTTPClientTransport(new URL(`${appUrl}${AGENT_API}/mcp`), { requestInit: { headers: stranger.headers } }));
      await expect(strangerClient.request({ method: 'tasks/get', params: { taskId } }, (await import('zod')).z.looseObject({}))).rejects.toMatchObject({ code: -32602 });
      await strangerClient.close();

      await decide(taskId, { approve: true, totalUsd: 4 });
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('completed');
      const result = (outcome as { result: CallToolResult }).result;
      expect(result.structuredContent).toMatchObject({ session_id: taskId, status: 'open', total: 4 });
    } finally {
      await tasks.close();
      await client.close();
    }
  });
});
