/**
 * For x402 suites: agents made and funded the way owners do it, agent API calls over real
 * HTTP, and a TCP relay in front of the chain's JSON-RPC that a test can cut (an RPC outage
 * as the product sees it) while the chain itself keeps running.
 */
import { createServer, type Server, type Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Address } from 'viem';
import { expect } from 'vitest';
import type { PrismaClient } from '@purser/db';
import { verifyLedger } from '../../src/services/ledger/verify-ledger';
import type { SignedUpOwner } from './owners';

export const AGENT_API = '/functions/v1/mcp-server';

export interface TestAgent {
  id: string;
  did: string;
  key: string;
  address: Address;
  headers: Record<string, string>;
}

export function ownerCall(app: FastifyInstance, owner: SignedUpOwner, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  return app.inject({ method, url, headers: owner.headers, ...(payload ? { payload } : {}) });
}

/** An agent made and funded through the owner API; in the sandbox funding also mints its USDC on chain. */
export async function createFundedAgent(
  app: FastifyInstance,
  owner: SignedUpOwner,
  options: { fund: number; maxTransaction?: number; dailyLimit?: number; approvalThreshold?: number },
): Promise<TestAgent> {
  const created = await ownerCall(app, owner, 'POST', '/api/v1/agents', {
    name: `Agent ${Math.random().toString(36).slice(2, 8)}`,
    max_transaction_amount: options.maxTransaction ?? 5,
    max_daily_limit: options.dailyLimit ?? 50,
  });
  expect(created.statusCode, created.body).toBe(201);
  const body = created.json() as { agent: { id: string; did: string; agent_wallets: { evm_wallet_address: Address } }; api_key: { key: string } };
  if (options.approvalThreshold !== undefined) {
    const rules = await ownerCall(app, owner, 'PATCH', `/api/v1/agents/${body.agent.id}/spending-rules`, { approval_threshold: options.approvalThreshold });
    expect(rules.statusCode, rules.body).toBe(200);
  }
  const funded = await ownerCall(app, owner, 'POST', '/api/v1/wallet/fund-agent', { agent_id: body.agent.id, amount: options.fund });
  expect(funded.statusCode, funded.body).toBe(200);
  return {
    id: body.agent.id,
    did: body.agent.did,
    key: body.api_key.key,
    address: body.agent.agent_wallets.evm_wallet_address,
    headers: { 'x-agent-did': body.agent.did, authorization: `Bearer ${body.api_key.key}` },
  };
}

/** `headers`: more request headers (a W3C baggage, say). */
export async function agentCall(appUrl: string, agent: TestAgent, method: 'GET' | 'POST', path: string, payload?: object, headers: Record<string, string> = {}) {
  const response = await fetch(`${appUrl}${AGENT_API}${path}`, {
    method,
    headers: { ...agent.headers, ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(payload ? { body: JSON.stringify(payload) } : {}),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> & { error?: { code: string; message: string } } };
}

export async function ledgerBalance(prisma: PrismaClient, agentId: string): Promise<bigint> {
  return (await prisma.agentWallet.findUniqueOrThrow({ where: { agentId }, select: { balanceUsdc: true } })).balanceUsdc;
}

export async function expectLedgerConsistent(prisma: PrismaClient): Promise<void> {
  expect((await verifyLedger(prisma)).problems).toEqual([]);
}

/** What the agent has signed, ever: every x402 rail operation of its intents, header included. */
export async function signedOperations(prisma: PrismaClient, agentId: string) {
  return prisma.railOperation.findMany({
    where: { rail: 'x402_base', paymentIntent: { agentId } },
    select: { paymentIntentId: true, status: true, declineCode: true, details: true, createdAt: true },
  });
}

export interface RpcRelay {
  url: string;
  /** Cuts every open connection and refuses new ones, as an unreachable RPC would. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** A TCP relay to `target` (http://127.0.0.1:port) on a port of its own. */
export async function startRpcRelay(target: string): Promise<RpcRelay> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let down = false;
  const server: Server = createServer((client) => {
    if (down) return void client.destroy();
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    const forget = () => {
      sockets.delete(client);
      sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', forget).on('close', forget);
    upstream.on('error', forget).on('close', forget);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut() {
      down = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Waits until the intent reaches `status` (an x402 call answers once the chain confirmed the
 * payment; the workflow captures it in the ledger right after), or fails with where it stands.
 */
export async function intentReaches(prisma: PrismaClient, intentId: string, status: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let current = '';
  while (Date.now() < deadline) {
    current = (await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { status: true } })).status;
    if (current === status) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`payment intent ${intentId} is ${current}, not ${status}, after ${timeoutMs} ms`);
}
