/**
 * The owner's edge functions under /functions/v1 (spec section 7): create-agent,
 * top-up-wallet and fund-agent, authenticated like every owner surface (Bearer access token, owner API key or
 * the session cookie). Errors are `{ error: { code, message } }` through the app's handler.
 *
 * Money-moving calls honour an idempotency key from the `Idempotency-Key` header or the
 * `idempotency_key` body field; a replayed response carries `Idempotent-Replayed: true`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, createAgentInput, fundAgentInput, topUpWalletInput } from '@purser/core';
import { createAgent } from '../services/agents/create-agent';
import { authenticateOwner, type AuthenticatedOwner } from '../services/auth/authenticate-owner';
import { fundAgent } from '../services/wallets/fund-agent';
import { mirrorFundingOnChain } from '../services/wallets/mirror-funding-on-chain';
import { topUpWallet } from '../services/wallets/top-up-wallet';
import type { AppDeps } from '../trpc/context';
import { idempotencyKeyOf, parseInput } from './request-input';

export const FUNCTIONS_PREFIX = '/functions/v1';

export async function functionsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }): Promise<void> {
  async function requireOwner(request: FastifyRequest): Promise<AuthenticatedOwner> {
    const owner = await authenticateOwner(deps, { authorization: request.headers.authorization, cookies: request.cookies });
    if (!owner) throw new AppError('UNAUTHORIZED', 'Missing or invalid credentials');
    return owner;
  }

  app.post('/top-up-wallet', async (request, reply) => {
    const owner = await requireOwner(request);
    const body = parseInput(topUpWalletInput, request.body);
    const result = await topUpWallet(deps, owner.userId, body, { idempotencyKey: idempotencyKeyOf(request, body.idempotency_key) });
    return send(reply, result);
  });

  app.post('/fund-agent', async (request, reply) => {
    const owner = await requireOwner(request);
    const body = parseInput(fundAgentInput, request.body);
    const result = await fundAgent(
      deps.db.prisma,
      owner.userId,
      { agentId: body.agent_id, amount: body.amount, currency: body.currency },
      { idempotencyKey: idempotencyKeyOf(request, body.idempotency_key) },
    );
    await mirrorFundingOnChain(deps, { agentId: body.agent_id, amount: body.amount, currency: body.currency, replayed: result.replayed });
    return send(reply, result);
  });

  app.post('/create-agent', async (request, reply) => {
    const owner = await requireOwner(request);
    const body = parseInput(createAgentInput, request.body);
    return reply.status(201).send(await createAgent(deps, owner.userId, body));
  });
}

function send(reply: FastifyReply, result: { response: unknown; replayed: boolean }): FastifyReply {
  if (result.replayed) reply.header('idempotent-replayed', 'true');
  return reply.status(200).send(result.response);
}
