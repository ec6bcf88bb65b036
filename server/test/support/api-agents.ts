/**
 * An agent made as its owner makes one, through POST /api/v1/agents (not with Prisma): its id,
 * name, and the headers it calls the agent API with (its DID and the API key shown once).
 */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { SignedUpOwner } from './owners';

export interface ApiAgent {
  id: string;
  name: string;
  headers: Record<string, string>;
}

export async function createApiAgent(app: FastifyInstance, owner: SignedUpOwner, rules = { max_transaction_amount: 25, max_daily_limit: 100 }): Promise<ApiAgent> {
  const name = `Agent ${Math.random().toString(36).slice(2, 8)}`;
  const response = await app.inject({ method: 'POST', url: '/api/v1/agents', headers: owner.headers, payload: { name, ...rules } });
  expect(response.statusCode, response.body).toBe(201);
  const body = response.json() as { agent: { id: string; did: string }; api_key: { key: string } };
  return { id: body.agent.id, name, headers: { 'x-agent-did': body.agent.did, authorization: `Bearer ${body.api_key.key}` } };
}
