/**
 * An owner's calls of the REST API that payment suites share: agents funded with spending
 * rules, intents created and read, as the owner's dashboard or SDK would call them.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { IntentView } from '@purser/core';
import type { SignedUpOwner } from './owners';

export interface FundedAgentOptions {
  fund: number;
  maxTransaction?: number;
  dailyLimit?: number;
  approvalThreshold?: number;
}

/** `app` and `owner` are read at each call, so a suite can bind them before its beforeAll made them. */
export function ownerIntents(app: () => FastifyInstance, owner: () => SignedUpOwner) {
  async function api(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    as: SignedUpOwner = owner(),
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    return app().inject({ method, url, headers: { ...as.headers, ...headers }, ...(body === undefined ? {} : { payload: body as object }) });
  }

  async function createFundedAgent(options: FundedAgentOptions): Promise<string> {
    const created = await api('POST', '/api/v1/agents', {
      name: `Agent ${Math.random().toString(36).slice(2, 8)}`,
      max_transaction_amount: options.maxTransaction ?? 100,
      max_daily_limit: options.dailyLimit ?? 1000,
    });
    expect(created.statusCode, created.body).toBe(201);
    const agentId = (created.json() as { agent: { id: string } }).agent.id;
    if (options.approvalThreshold !== undefined) {
      const rules = await api('PATCH', `/api/v1/agents/${agentId}/spending-rules`, { approval_threshold: options.approvalThreshold });
      expect(rules.statusCode, rules.body).toBe(200);
    }
    const funded = await api('POST', '/api/v1/wallet/fund-agent', { agent_id: agentId, amount: options.fund });
    expect(funded.statusCode, funded.body).toBe(200);
    return agentId;
  }

  async function createIntent(body: Record<string, unknown>): Promise<IntentView> {
    const response = await api('POST', '/api/v1/intents', body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as IntentView;
  }

  async function getIntent(intentId: string): Promise<IntentView> {
    const response = await api('GET', `/api/v1/intents/${intentId}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as IntentView;
  }

  return { api, createFundedAgent, createIntent, getIntent };
}
