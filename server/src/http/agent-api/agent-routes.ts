/**
 * The agent REST API under /functions/v1/mcp-server (spec section 7), one declaration per
 * operation: its zod schemas validate the request, describe it in the OpenAPI document and
 * type the handler. Every route authenticates the agent (plugin.ts) before it runs.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  AGENT_PAYMENT_SESSION_LIST_LIMIT,
  AGENT_TRANSACTIONS_LIMIT,
  agentBalanceView,
  agentInfoView,
  agentPaymentByKeyQuery,
  agentPaymentInput,
  agentPaymentParams,
  agentPaymentSessionListView,
  agentPaymentSessionView,
  agentRequestedPaymentSessionView,
  agentPaymentView,
  agentTransactionsPage,
  agentTransactionsQuery,
  paymentReceiptView,
  paymentSessionIdInput,
  requestPaymentSessionInput,
  x402ChannelCloseView,
  x402ChannelDetailView,
  x402ChannelsView,
  x402FetchInput,
  x402ProxyInput,
  x402RequirementsInput,
  x402RequirementsView,
  x402SignedPaymentView,
  x402SignPaymentInput,
  x402UpstreamResponseView,
  type OAuthScope,
} from '@purser/core';
import { listAgentTransactionPage } from '../../services/agents/list-agent-transactions';
import type { AgentWalletSnapshot, AuthenticatedAgent } from '../../services/agents/authenticate-agent';
import { getAgentBalance } from '../../services/agent-api/get-agent-balance';
import { getAgentInfo } from '../../services/agent-api/get-agent-info';
import { getAgentPayment } from '../../services/agent-api/get-agent-payment';
import { makeAgentPayment } from '../../services/agent-api/make-agent-payment';
import { issuePaymentReceipt } from '../../services/payments/issue-payment-receipt';
import { getAgentPaymentSession } from '../../services/payment-sessions/get-payment-session';
import { listAgentPaymentSessions } from '../../services/payment-sessions/list-payment-sessions';
import { requestPaymentSession } from '../../services/payment-sessions/request-payment-session';
import { toAgentSessionView } from '../../services/payment-sessions/session-view';
import { closeX402Channel } from '../../services/paid-calls/close-channel';
import { getX402Channel } from '../../services/paid-calls/get-channel';
import { listX402Channels } from '../../services/paid-calls/list-channels';
import { fetchWithX402 } from '../../services/paid-calls/fetch-paid';
import { proxyX402Request } from '../../services/paid-calls/proxy-paid-call';
import { readX402Requirements } from '../../services/paid-calls/read-offer';
import { signX402Payment } from '../../services/paid-calls/sign-payment';
import type { AppDeps } from '../../deps';
import type { DocumentedRoute } from '../api-v1/openapi';

export interface AgentHandlerContext<B, P = unknown, Q = unknown> {
  deps: AppDeps;
  agent: AuthenticatedAgent;
  /** The agent's wallet as its authentication read it, at the start of this request (authenticate-agent.ts). */
  wallet: AgentWalletSnapshot;
  body: B;
  params: P;
  query: Q;
  idempotencyKey: string | undefined;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** A handler's answer: the body, and the status when it is not the route's usual one. */
export interface AgentAnswer {
  status?: number;
  body: unknown;
  /** An idempotent replay: answered with `Idempotent-Replayed: true`. */
  replayed?: boolean;
}

export interface AgentRoute<B extends z.ZodType = z.ZodType, P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType>
  extends Omit<DocumentedRoute, 'body' | 'params' | 'query' | 'auth' | 'tag'> {
  body?: B;
  params?: P;
  query?: Q;
  /** What an OAuth access token needs to call it (core's OAUTH_SCOPES); an API key may call every route. */
  oauthScope: OAuthScope;
  handler(context: AgentHandlerContext<z.output<B>, z.output<P>, z.output<Q>>): Promise<AgentAnswer>;
}

function defineAgentRoute<B extends z.ZodType, P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType>(route: AgentRoute<B, P, Q>): AgentRoute {
  return route as unknown as AgentRoute;
}

const WAITING = { 202: 'Accepted: the payment waits for the owner to approve it (or is still processing); the body says where it stands' };

export const agentRoutes: AgentRoute[] = [
  defineAgentRoute({
    method: 'GET',
    path: '/balance',
    oauthScope: 'read',
    operationId: 'agentBalance',
    summary: "The agent's USDC and USDT balances, in the ledger and on chain, with the network",
    response: agentBalanceView,
    // The wallet its authentication read: this route does nothing else, so it sends no statement of its own.
    handler: async ({ deps, agent, wallet }) => ({ body: await getAgentBalance(deps, agent, wallet) }),
  }),
  defineAgentRoute({
    method: 'POST',
    path: '/payment',
    oauthScope: 'pay',
    operationId: 'agentPayment',
    summary: 'Pay from the agent wallet; answers when the payment settles (200) or waits for approval (202)',
    description:
      'Runs the payment workflow: spending rules, policies and KYA caps, owner approval when required, then the rail. Send an `Idempotency-Key` so a retry never pays twice.',
    idempotent: true,
    body: agentPaymentInput,
    response: agentPaymentView,
    otherResponses: WAITING,
    handler: async ({ deps, agent, body, idempotencyKey }) => {
      const { payment, settled, replayed } = await makeAgentPayment(deps, agent, body, { idempotencyKey });
      return { status: settled ? 200 : 202, body: payment, replayed };
    },
  }),
  defineAgentRoute({
    method: 'GET',
    path: '/payment/:intentId',
    oauthScope: 'read',
    operationId: 'agentPaymentStatus',
    summary: 'Where one of the agent’s payments stands, by its intent id: nothing is paid; a refused payment answers with its status and failure',
    params: agentPaymentParams,
    response: agentPaymentView,
    handler: async ({ deps, agent, params }) => ({ body: await getAgentPayment(deps, agent, { intentId: params.intentId }) }),
  }),
  defineAgentRoute({
    method: 'GET',
    path: '/payment/:intentId/receipt',
    oauthScope: 'read',
    operationId: 'agentPaymentReceipt',
    summary: 'The receipt of one of the agent’s settled payments: a JWS signed with the platform issuer key, for a third party to verify with the keys at /.well-known/jwt-vc-issuer',
    description:
      'The same receipt the owner sees, signed over the payment’s settled facts (`typ` `purser-receipt+jwt`, `alg` EdDSA); the same payment always answers the same receipt. A payment that has not settled answers 409 `CONFLICT`; another agent’s payment is 404 `NOT_FOUND`.',
    params: agentPaymentParams,
    response: paymentReceiptView,
    handler: async ({ deps, agent, params }) => ({ body: await issuePaymentReceipt(deps, { ownerId: agent.ownerId, agentId: agent.agentId }, params.intentId) }),
  }),
  defineAgentRoute({
    method: 'GET',
    path: '/payment',
    oauthScope: 'read',
    operationId: 'agentPaymentByKey',
    summary: 'Where the agent’s payment made with an idempotency key stands: the same answer as GET /payment/{intentId}',
    query: agentPaymentByKeyQuery,
    response: agentPaymentView,
    handler: async ({ deps, agent, query }) => ({ body: await getAgentPayment(deps, agent, { idempotencyKey: query.idempotency_key }) }),
  }),
  defineAgentRoute({
    method: 'GET',
    path: '/transactions',
    oauthScope: 'read',
    operationId: 'agentTransactions',
    summary: `The agent's transactions with their categories and metadata, newest first: pages of up to ${AGENT_TRANSACTIONS_LIMIT}, the next one at next_cursor`,
    query: agentTransactionsQuery,
    response: agentTransactionsPage,
    handler: async ({ deps, agent, query }) => ({
      body: await listAgentTransactionPage(deps, agent.ownerId, agent.agentId, { limit: query.limit ?? AGENT_TRANSACTIONS_LIMIT, cursor: query.cursor }),
    }),
  }),
  defineAgentRoute({
    method: 'POST',
    path: '/budget/request',
    oauthScope: 'pay',
    operationId: 'agentRequestBudget',
    summary: 'Ask the owner for a budget for one task: a total, an optional cap per payment, an expiry (at most 30 days), an optional scope and the reason',
    description:
      'The request waits for the owner, who grants it (possibly for less, or until sooner) or rejects it with a note. Hand `approval_url` to the owner: a one-time link, working 30 minutes, where they decide it signed in. Read `GET /budget/{session_id}` until its status is `open`, then pass `session_id` with each payment. At most 5 requests may wait at once: one more is 409 `CONFLICT`.',
    status: 201,
    body: requestPaymentSessionInput,
    response: agentRequestedPaymentSessionView,
    handler: async ({ deps, agent, body }) => ({ body: toAgentSessionView(await requestPaymentSession(deps, agent, body)) }),
  }),
  defineAgentRoute({
    method: 'GET',
    path: '/budget/:sessionId',
    oauthScope: 'read',
    operationId: 'agentBudget',
    summary: 'One of the agent’s budgets (payment sessions): its status, what it spent and what remains, the owner’s note, and what to do next',
    params: paymentSessionIdInput,
    response: agentPaymentSessionView,
    handler: async ({ deps, agent, params }) => ({ body: await getAgentPaymentSession(deps, agent, params.sessionId) }),
  }),
  defineAgentRoute({
    method: 'GET',
    path: '/budgets',
    oauthScope: 'read',
    operationId: 'agentBudgets',
    summary: `The agent's budgets (payment sessions), newest first, ${AGENT_PAYMENT_SESSION_LIST_LIMIT} at most`,
    response: agentPaymentSessionListView,
    handler: async ({ deps, agent }) => ({ body: await listAgentPaymentSessions(deps, agent) }),
  }),
  defineAgentRoute({
    method: 'GET',
    path: '/info',
    oauthScope: 'read',
    operationId: 'agentInfo',
    summary: 'DID, verifiable credential, wallet addresses, spending rules and x402 capabilities',
    response: agentInfoView,
    handler: async ({ deps, agent }) => ({ body: await getAgentInfo(deps, agent) }),
  }),
  defineAgentRoute({
    method: 'POST',
    path: '/x402/requirements',
    oauthScope: 'fetch',
    operationId: 'x402Requirements',
    summary: "Fetch an upstream URL and read its 402 answer: the seller's accepted payments and the one to sign",
    body: x402RequirementsInput,
    response: x402RequirementsView,
    handler: async ({ deps, agent, body }) => ({ body: await readX402Requirements(deps, agent, body) }),
  }),
  defineAgentRoute({
    method: 'POST',
    path: '/x402/sign-payment',
    oauthScope: 'fetch',
    operationId: 'x402SignPayment',
    summary: 'Sign a payment for a requirement, after spending rules, policies and balance allow it',
    description:
      'The body is the chosen requirement (or `{ requirement, url, description, category }`). Nothing is signed before the payment workflow has checked the rules and held the funds. Answers `xPaymentHeader` (also `x_payment_header`) for the header named in `header_name`.',
    idempotent: true,
    body: x402SignPaymentInput,
    response: x402SignedPaymentView,
    otherResponses: WAITING,
    handler: async ({ deps, agent, body, idempotencyKey }) => {
      const { view, authorized, replayed } = await signX402Payment(deps, agent, body, { idempotencyKey });
      return { status: authorized ? 200 : 202, body: view, replayed };
    },
  }),
  defineAgentRoute({
    method: 'POST',
    path: '/x402/proxy',
    oauthScope: 'fetch',
    operationId: 'x402Proxy',
    summary: 'Call the upstream with the signed payment header; answers its status, headers, body and payment response',
    body: x402ProxyInput,
    response: x402UpstreamResponseView,
    handler: async ({ deps, agent, body, reply }) => {
      const view = await proxyX402Request(deps, agent, body);
      setPaymentResponseHeader(reply, view);
      return { body: view };
    },
  }),
  ...(
    [
      {
        path: '/pay/fetch',
        operationId: 'payFetch',
        summary:
          "Fetch a URL, paying its 402 in whichever protocol the seller speaks (x402 or MPP; offered both, the one the owner's policies prefer, else the cheaper, then x402), never above max_amount",
      },
      { path: '/x402/fetch', operationId: 'x402Fetch', summary: 'The same as /pay/fetch (its first name): requirements, payment and paid call in one, never above max_amount' },
    ] as const
  ).map(({ path, operationId, summary }) =>
    defineAgentRoute({
      method: 'POST',
      path,
      oauthScope: 'fetch',
      operationId,
      summary,
      description: 'The answer names the protocol the call was paid in (`payment.protocol`) and, for MPP, the seller\'s Payment-Receipt with whether the chain confirms it (`mpp_receipt`).',
      idempotent: true,
      body: x402FetchInput,
      response: x402UpstreamResponseView,
      otherResponses: { 202: 'Accepted: the payment waits for the owner to approve it; the body is the pending payment (as /x402/sign-payment answers)' },
      handler: async ({ deps, agent, body, idempotencyKey, reply }) => {
        const outcome = await fetchWithX402(deps, agent, body, { idempotencyKey });
        if (outcome.kind === 'waiting') return { status: 202, body: outcome.view };
        setPaymentResponseHeader(reply, outcome.view);
        return { body: outcome.view };
      },
    }),
  ),
  defineAgentRoute({
    method: 'GET',
    path: '/x402/channels',
    oauthScope: 'read',
    operationId: 'agentChannels',
    summary: "The agent's x402 batch-settlement channels, newest first: deposit held, what the vouchers signed, how many, and how each ended",
    response: x402ChannelsView,
    handler: async ({ deps, agent }) => ({ body: await listX402Channels(deps, agent) }),
  }),
  defineAgentRoute({
    method: 'GET',
    path: '/x402/channels/:intentId',
    oauthScope: 'read',
    operationId: 'agentChannel',
    summary: 'One of the agent’s x402 channels with its vouchers: amount, running total, resource and time of each paid call',
    params: agentPaymentParams,
    response: x402ChannelDetailView,
    handler: async ({ deps, agent, params }) => ({ body: await getX402Channel(deps, agent, params.intentId) }),
  }),
  defineAgentRoute({
    method: 'POST',
    path: '/x402/channels/:intentId/close',
    oauthScope: 'fetch',
    operationId: 'agentCloseChannel',
    summary: 'Close an x402 channel: the seller is asked to claim and refund; the ledger captures what the chain says it claimed and returns the rest of the deposit',
    description:
      'No voucher is signed after the call. The answer says what the seller answered to the refund request and where the channel stands: `closed` once the chain settled it, `closing` while the seller has not refunded yet.',
    params: agentPaymentParams,
    response: x402ChannelCloseView,
    handler: async ({ deps, agent, params }) => ({ body: await closeX402Channel(deps, agent, params.intentId) }),
  }),
];

/** The spec's proxy answers carry the seller's payment response as an X-Payment-Response header too. */
function setPaymentResponseHeader(reply: FastifyReply, view: { headers: Record<string, string> }): void {
  const value = view.headers['payment-response'] ?? view.headers['x-payment-response'];
  if (value) reply.header('x-payment-response', value);
}
