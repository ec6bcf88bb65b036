/**
 * The owner's edge functions under /functions/v1 (spec section 7): create-agent,
 * top-up-wallet and fund-agent, authenticated like every owner surface (Bearer access token, owner API key or
 * the session cookie). Errors are `{ error: { code, message } }` through the app's handler.
 *
 * Money-moving calls honour an idempotency key from the `Idempotency-Key` header or the
 * `idempotency_key` body field; a replayed response carries `Idempotent-Replayed: true`.
 */
import type { FastifyInstance } from 'fastify';
import { createAgentInput, createAgentResult, fundAgentInput, fundAgentResult, topUpWalletInput, topUpWalletResult } from '@purser/core';
import { createAgent } from '../services/agents/create-agent';
import { fundAgentAndMirror } from '../services/wallets/fund-agent';
import { topUpWallet } from '../services/wallets/top-up-wallet';
import type { AppDeps } from '../deps';
import { defineRoute, type ApiRoute } from './api-v1/define-route';
import { registerRoute } from './api-v1/register-route';

export const FUNCTIONS_PREFIX = '/functions/v1';

const TAG = 'Edge functions';

export const functionsApiRoutes = [
  defineRoute({
    method: 'POST',
    path: '/top-up-wallet',
    operationId: 'functionTopUpWallet',
    summary: 'Top up the wallet from the sandbox funding source (the edge function beside POST /api/v1/wallet/top-up)',
    tag: TAG,
    scope: 'wallet:fund',
    idempotent: true,
    body: topUpWalletInput,
    response: topUpWalletResult,
    async handler({ deps, owner, body, idempotencyKey, reply }) {
      const result = await topUpWallet(deps, owner.userId, body, { idempotencyKey });
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return result.response;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/fund-agent',
    operationId: 'functionFundAgent',
    summary: "Fund one of the owner's agents from the owner's wallet (the edge function beside POST /api/v1/wallet/fund-agent)",
    tag: TAG,
    scope: 'wallet:fund',
    idempotent: true,
    body: fundAgentInput,
    response: fundAgentResult,
    async handler({ deps, owner, body, idempotencyKey, reply }) {
      const result = await fundAgentAndMirror(deps, owner.userId, { agentId: body.agent_id, amount: body.amount, currency: body.currency }, { idempotencyKey });
      if (result.replayed) reply.header('idempotent-replayed', 'true');
      return result.response;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/create-agent',
    operationId: 'functionCreateAgent',
    summary: 'Create an agent with its DID, wallet, spending rules, credential and an API key shown once (the edge function beside POST /api/v1/agents)',
    tag: TAG,
    scope: 'agents:admin',
    status: 201,
    body: createAgentInput,
    response: createAgentResult,
    handler: ({ deps, owner, body }) => createAgent(deps, owner.userId, body),
  }),
] as ApiRoute[];

export async function functionsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }): Promise<void> {
  for (const route of functionsApiRoutes) registerRoute(app, route, { deps, owners: { deps } });
}
