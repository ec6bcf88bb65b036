/**
 * The agent API as MCP tools (/functions/v1/mcp-server/mcp): the same services as the REST
 * routes, for the same authenticated agent, declared once in AGENT_TOOLS and served to MCP
 * 2026-07-28 and 2025-11-25 clients alike (mcp-endpoint.ts picks the era, the SDK speaks it).
 *
 * Each tool has a title, a description an LLM can act on, annotations, the REST contract from
 * @purser/core as its input schema and the REST view as its output schema: tools/list shows both,
 * the arguments are parsed with the contract and the answer with the view, which comes back as
 * structuredContent (and as JSON text for clients that read only text). Every expected failure
 * (a bad input, a refusal, a seller that failed) is a tool result with isError and the code and
 * message REST answers, so the model reads the reason instead of a protocol error.
 *
 * A payment that waits for its owner comes back as a task the client polls (mcp-tasks.ts) where
 * the client takes tasks. That is why the tools are served by the SDK's low-level Server from
 * this table rather than by McpServer.registerTool: McpServer checks every tools/call result as a
 * CallToolResult against the output schema, and its tool callbacks never see the 2025 `task`
 * parameter, so neither era's task answer could come back through it.
 *
 * Annotations, per tool: the reads are readOnlyHint. The paying tools are destructiveHint (money
 * leaves the agent wallet) and not idempotentHint: the same call pays once only when it carries
 * the same idempotency_key, which the argument is optional, so a host must not retry them on its
 * own. x402_proxy is idempotentHint: a signed header is redeemed once, a repeat is refused before
 * the seller sees it. x402_requirements only reads a price, but sends the agent's request (any
 * method) to the upstream, so it is not marked read-only. Tools that call an upstream URL are
 * openWorldHint.
 */
import { ProtocolError, ProtocolErrorCode, Server, type CallToolResult, type ServerContext, type Tool, type ToolAnnotations } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  AGENT_TRANSACTIONS_LIMIT,
  agentBalanceView,
  agentInfoView,
  agentPaymentSessionView,
  agentPaymentInput,
  agentPaymentView,
  agentTransactionView,
  paymentSessionIdInput,
  requestPaymentSessionInput,
  x402FetchInput,
  x402ProxyFields,
  x402RequirementsInput,
  x402RequirementsView,
  x402SignedPaymentView,
  x402SignPaymentFields,
  x402UpstreamResponseView,
  type AgentPaymentView,
  type OAuthScope,
} from '@purser/core';
import type { AuthenticatedAgent } from '../../services/agents/authenticate-agent';
import { listAgentTransactions } from '../../services/agents/list-agent-transactions';
import { getAgentBalance } from '../../services/agent-api/get-agent-balance';
import { getAgentInfo } from '../../services/agent-api/get-agent-info';
import { makeAgentPayment } from '../../services/agent-api/make-agent-payment';
import { getAgentPaymentSession } from '../../services/payment-sessions/get-payment-session';
import { requestPaymentSession } from '../../services/payment-sessions/request-payment-session';
import { toAgentSessionView, type RequestedPaymentSession } from '../../services/payment-sessions/session-view';
import { budgetTaskOf } from '../../services/agent-api/mcp-budget-task';
import { getPaymentTask, type PaymentTask } from '../../services/agent-api/mcp-payment-task';
import { fetchWithX402 } from '../../services/paid-calls/fetch-paid';
import { proxyX402Request } from '../../services/paid-calls/proxy-paid-call';
import { readX402Requirements } from '../../services/paid-calls/read-offer';
import { signX402Payment } from '../../services/paid-calls/sign-payment';
import type { AppDeps } from '../../deps';
import { errorAnswer } from '../error-answer';
import { parseInput } from '../request-input';
import { askOwnerToDecide, budgetRoundCodec, budgetRoundOf, clientOpensUrls, continueBudgetRound } from './mcp-budget-request';
import { clientTakesTask, createTaskResult, registerTaskMethods, taskCapabilities, type McpEra } from './mcp-tasks';

/** The scope a tools/call of `name` needs; undefined for a tool that does not exist. */
export function toolScope(name: unknown): OAuthScope | undefined {
  return AGENT_TOOLS.find((tool) => tool.name === name)?.scope;
}

export const MCP_SERVER_INFO = { name: 'purser-agent', version: '1.0.0' };

const INSTRUCTIONS =
  'Purser pays on behalf of this agent. Check get_balance before paying; make_payment pays an address from the agent wallet; x402_fetch reads a paid URL, paying its HTTP 402 within the spending rules. ' +
  'Give every payment an idempotency_key: the same key pays once, however often the call is repeated. ' +
  'Payments above the approval threshold wait for the owner: a client that takes tasks gets a task to poll until the owner decides; otherwise the answer says the payment waits.';

/**
 * A contract's fields with words for the model that calls the tool. The descriptions are the
 * MCP surface's own (they name tools and speak to an LLM); what is valid stays the contract's.
 */
function described<T extends Record<string, z.ZodType>>(shape: T, descriptions: { [K in keyof T]?: string }): T {
  return Object.fromEntries(
    Object.entries(shape).map(([name, field]) => [name, descriptions[name] === undefined ? field : field.describe(descriptions[name])]),
  ) as T;
}

const AMOUNT = 'Dollars, e.g. 1.25 or "0.000001" (at most 6 decimals)';
const IDEMPOTENCY_KEY = 'Your key for this payment (e.g. an order id): repeating the call with the same key returns the same payment instead of paying twice';
const UPSTREAM = {
  url: 'The http(s) URL of the paid resource',
  method: 'HTTP method; GET when left out',
  headers: 'Request headers to send upstream',
  body: 'Request body to send upstream, as text (JSON-encode it yourself)',
};

const paymentInput = z.object(
  described(agentPaymentInput.shape, {
    amount: AMOUNT,
    currency: 'USDC when left out',
    to_address: 'Who is paid: an address or account id',
    description: 'What the payment is for; the owner sees it',
    category: 'Spending category, e.g. "api", "data", "compute"',
    metadata: 'Your own references, kept with the transaction',
    rail: 'ledger (an internal transfer, the default); solana, card and bank are sandbox rails',
    idempotency_key: IDEMPOTENCY_KEY,
  }),
);

const requirementsInput = z.object(described(x402RequirementsInput.shape, UPSTREAM));

const signPaymentInput = z.object(
  described(x402SignPaymentFields.shape, {
    requirement: 'The chosen entry of the accepts list, unchanged',
    x402_version: 'The x402Version of the 402 answer (2 when left out)',
    url: 'The URL being paid for',
    idempotency_key: IDEMPOTENCY_KEY,
  }),
);

// Step 3 exists to send the signed header: the tool asks for it, under one name. REST also
// takes it under the spec's two other names, and without it proxies an unpaid call.
const { x_payment_header: _x, xPaymentHeader: _spec, ...proxyFields } = x402ProxyFields.shape;
const proxyInput = z.object(
  described({ ...proxyFields, payment_header: x402ProxyFields.shape.payment_header.unwrap() }, { ...UPSTREAM, payment_header: 'xPaymentHeader from x402_sign_payment' }),
);

const budgetRequestInput = z.object(
  described(requestPaymentSessionInput.shape, {
    total: 'The whole budget in dollars, e.g. 5 or "2.50" (at most 100000)',
    per_payment_max: 'Optional: no single payment above this many dollars',
    expires_at: 'When the budget ends: an ISO 8601 date-time in the future, at most 30 days away, e.g. 2026-12-31T00:00:00Z',
    scope: 'Optional: limit the budget to sellers (host names or pay-to addresses), categories, protocols (x402, mpp) or rails',
    reason: 'What the budget is for, in a sentence the owner reads before deciding',
  }),
);

const budgetInput = z.object({ session_id: paymentSessionIdInput.shape.sessionId.describe('session_id from request_budget') });

const fetchInput = z.object(described(x402FetchInput.shape, { ...UPSTREAM, max_amount: 'Never pay more than this many dollars', idempotency_key: IDEMPOTENCY_KEY }));

/** list_transactions answers the latest page, without a cursor: the REST page less next_cursor. */
const transactionsView = z.object({ transactions: z.array(agentTransactionView) });

interface ToolContext {
  deps: AppDeps;
  agent: AuthenticatedAgent;
}

/**
 * What a tool answers: its output view; or a payment, which a client that takes tasks gets as a
 * task while it is not final; or, for a call that could not finish yet (x402_fetch waiting for
 * the owner), a message with the details, answered as isError since there is no view to give.
 */
type ToolOutcome =
  | { kind: 'view'; view: unknown }
  | { kind: 'payment'; payment: AgentPaymentView; final: boolean }
  | { kind: 'budget'; session: RequestedPaymentSession }
  | { kind: 'unfinished'; message: string; details: Record<string, unknown> };

interface AgentTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  /** What an OAuth access token needs to call it; the REST route it mirrors needs the same. */
  scope: OAuthScope;
  /** A payment that is not final, or a budget request, may be answered as a task (mcp-tasks.ts). */
  tasks?: true;
  run(context: ToolContext, args: unknown): Promise<ToolOutcome>;
}

function defineTool<I extends z.ZodObject>(tool: Omit<AgentTool, 'input' | 'run'> & { input: I; run(context: ToolContext, args: z.output<I>): Promise<ToolOutcome> }): AgentTool {
  return tool as unknown as AgentTool;
}

const view = (value: unknown): ToolOutcome => ({ kind: 'view', view: value });
const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } satisfies ToolAnnotations;
const NONE = z.object({});

export const AGENT_TOOLS: readonly AgentTool[] = [
  defineTool({
    name: 'get_balance',
    scope: 'read',
    title: 'Wallet balance',
    description: "The agent's USDC and USDT balances (ledger and on chain) and the network it pays on.",
    input: NONE,
    output: agentBalanceView,
    annotations: READ,
    run: async ({ deps, agent }) => view(await getAgentBalance(deps, agent)),
  }),
  defineTool({
    name: 'make_payment',
    scope: 'pay',
    title: 'Make a payment',
    description:
      'Pay an address from the agent wallet. Answers once the payment settles. A payment above the approval threshold waits for the owner: it comes back as a task to poll when your client takes tasks, otherwise with status pending_approval (call again with the same idempotency_key to see the outcome). Refused with a reason when it breaks a spending rule or policy or the balance is short.',
    input: paymentInput,
    output: agentPaymentView,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    tasks: true,
    run: async ({ deps, agent }, args) => {
      const { payment, settled } = await makeAgentPayment(deps, agent, args, {});
      return { kind: 'payment', payment, final: settled };
    },
  }),
  defineTool({
    name: 'list_transactions',
    scope: 'read',
    title: 'Recent transactions',
    description: `The agent's latest ${AGENT_TRANSACTIONS_LIMIT} transactions, newest first, with categories and metadata.`,
    input: NONE,
    output: transactionsView,
    annotations: READ,
    run: async ({ deps, agent }) => view({ transactions: await listAgentTransactions(deps, agent.ownerId, agent.agentId, { limit: AGENT_TRANSACTIONS_LIMIT }) }),
  }),
  defineTool({
    name: 'get_info',
    scope: 'read',
    title: 'Agent identity and rules',
    description: "The agent's DID, verifiable credential, wallet addresses, spending rules and x402 capabilities.",
    input: NONE,
    output: agentInfoView,
    annotations: READ,
    run: async ({ deps, agent }) => view(await getAgentInfo(deps, agent)),
  }),
  defineTool({
    name: 'request_budget',
    scope: 'pay',
    title: 'Ask the owner for a budget',
    description:
      'Ask the owner for a budget for one task (a payment session): a total, an optional cap per payment, an expiry and what it is for. Nothing is paid; the request waits for the owner, who may grant less or a shorter time, or reject it. The answer carries approval_url, a one-time link to hand the owner (a client that opens URLs is asked to open it, and the call answers once the owner decides). Then call get_budget with session_id until status is open, and pass session_id with each payment. At most 5 requests may wait at once.',
    input: budgetRequestInput,
    output: agentPaymentSessionView,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    tasks: true,
    run: async ({ deps, agent }, args) => ({ kind: 'budget', session: await requestPaymentSession(deps, agent, args) }),
  }),
  defineTool({
    name: 'get_budget',
    scope: 'read',
    title: 'Budget status',
    description: 'Where a budget (payment session) stands: requested (waiting for the owner), open, rejected (with the owner’s note) or closed; what it spent, what remains, and what to do next.',
    input: budgetInput,
    output: agentPaymentSessionView,
    annotations: READ,
    run: async ({ deps, agent }, args) => view(await getAgentPaymentSession(deps, agent, args.session_id)),
  }),
  defineTool({
    name: 'x402_requirements',
    scope: 'fetch',
    title: 'Read an x402 price',
    description:
      "Step 1 of an x402 payment: fetch a URL and read its HTTP 402 answer. Returns the seller's accepted payments and `recommended`, the one to sign. Nothing is paid.",
    input: requirementsInput,
    output: x402RequirementsView,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: async ({ deps, agent }, args) => view(await readX402Requirements(deps, agent, args)),
  }),
  defineTool({
    name: 'x402_sign_payment',
    scope: 'fetch',
    title: 'Sign an x402 payment',
    description:
      'Step 2: sign a payment for a requirement (pass `recommended` from x402_requirements). Spending rules, policies and the balance are checked and the funds held first; failure usually means the wallet needs funding or the price exceeds the limits. Returns xPaymentHeader, or null with status pending_approval while the owner decides (call again with the same idempotency_key afterwards).',
    input: signPaymentInput,
    output: x402SignedPaymentView,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: async ({ deps, agent }, args) => view((await signX402Payment(deps, agent, args)).view),
  }),
  defineTool({
    name: 'x402_proxy',
    scope: 'fetch',
    title: 'Call with an x402 payment',
    description:
      "Step 3: call the URL again with the signed payment header. Returns the seller's status, headers, body and payment response (with the transaction hash). A header pays once: a repeat is refused.",
    input: proxyInput,
    output: x402UpstreamResponseView,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    run: async ({ deps, agent }, args) => view(await proxyX402Request(deps, agent, args)),
  }),
  defineTool({
    name: 'x402_fetch',
    scope: 'fetch',
    title: 'Fetch a paid URL',
    description:
      'Fetch a URL and, if it answers HTTP 402, pay it within the spending rules and return the paid answer. Pays x402 sellers and MPP (Machine Payments Protocol) sellers alike; a seller offering both is paid once, in one of them. payment.protocol says which was paid ("x402" or "mpp"); for MPP, mpp_receipt is the seller\'s receipt, confirmed when the chain shows its transaction. Set max_amount to cap the price, and an idempotency_key so a repeated call never pays twice.',
    input: fetchInput,
    output: x402UpstreamResponseView,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    run: async ({ deps, agent }, args) => {
      const outcome = await fetchWithX402(deps, agent, args);
      if (outcome.kind === 'response') return view(outcome.view);
      const { intent_id: intentId, amount_exact: amount, status } = outcome.view;
      const waiting = status === 'pending_approval' ? 'waits for the owner to approve it' : 'is still being processed';
      return {
        kind: 'unfinished',
        message:
          `The payment of ${amount} USDC ${waiting} (payment intent ${intentId}); nothing was fetched yet. ` +
          (args.idempotency_key
            ? 'Call x402_fetch again with the same arguments and idempotency_key once it is approved.'
            : 'Call x402_fetch again with an idempotency_key next time: without one, a new call is a new payment.'),
        details: outcome.view,
      };
    },
  }),
];

const TOOLS = new Map(AGENT_TOOLS.map((tool) => [tool.name, tool]));

/** A contract as tools/list shows it: its JSON Schema, as input (what may be sent) or output. */
function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Tool['inputSchema'] {
  const { $schema: _draft, ...jsonSchema } = z.toJSONSchema(schema, { io });
  return jsonSchema as Tool['inputSchema'];
}

const listedTools = new Map<McpEra, Tool[]>();

/** The tools as tools/list shows them; 2025 clients also learn which tools may answer as a task. */
function toolsFor(era: McpEra): Tool[] {
  let tools = listedTools.get(era);
  if (!tools) {
    tools = AGENT_TOOLS.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: jsonSchemaOf(tool.input, 'input'),
      outputSchema: jsonSchemaOf(tool.output, 'output'),
      annotations: tool.annotations,
      ...(era === 'legacy' && tool.tasks ? { execution: { taskSupport: 'optional' as const } } : {}),
    }));
    listedTools.set(era, tools);
  }
  return tools;
}

/** A view as the tool's answer: parsed with its output schema, so it is what tools/list promised. */
function viewResult(tool: AgentTool, value: unknown): CallToolResult {
  const structured = tool.output.parse(value) as Record<string, unknown>;
  return { content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }], structuredContent: structured };
}

/**
 * A fresh server per request (stateless), bound to the authenticated agent and the request's
 * protocol era; cheap, and without side effects until a request arrives. `requestId` is the
 * HTTP request's id, quoted in an unexpected failure's answer.
 */
export function createAgentMcpServer(deps: AppDeps, agent: AuthenticatedAgent, requestId: string, era: McpEra): Server {
  // 2026-07-28 rounds of request_budget carry our signed state (mcp-budget-request.ts); made when first needed.
  let codec: ReturnType<typeof budgetRoundCodec> | undefined;
  const rounds = () => (codec ??= budgetRoundCodec(deps.masterKey, agent.agentId));
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: { listChanged: false }, ...taskCapabilities(era) },
    instructions: INSTRUCTIONS,
    ...(era === 'modern' ? { requestState: { verify: (state: string, ctx: ServerContext) => rounds().verify(state, ctx) } } : {}),
  });
  const context: ToolContext = { deps, agent };

  /** An error as the tool's answer: expected ones say what REST says; anything else is logged. */
  const errorResult = (error: unknown, tool: string): CallToolResult => {
    const answer = errorAnswer(error, 'mcp');
    if (answer.log !== 'fault') return { isError: true, content: [{ type: 'text', text: `${answer.code}: ${answer.message}` }] };
    // Anything else may carry internals (a query, a driver's words): the model gets the
    // request id to quote, the log gets the error.
    deps.logger.error({ err: error, tool, agentId: agent.agentId, reqId: requestId }, 'MCP tool failed');
    return { isError: true, content: [{ type: 'text', text: `${answer.code}: ${answer.message} (request ${requestId}); try again later` }] };
  };

  /** The answer of a completed task: what make_payment answers for the final payment, or request_budget for the decided request. */
  const taskResult = (task: PaymentTask): CallToolResult => {
    const outcome = task.outcome;
    if (!outcome) throw new Error(`Task ${task.taskId} is not completed`);
    if ('budget' in outcome) return viewResult(TOOLS.get('request_budget')!, outcome.budget);
    return 'payment' in outcome ? viewResult(TOOLS.get('make_payment')!, outcome.payment) : errorResult(outcome.refusal, 'make_payment');
  };

  server.setRequestHandler('tools/list', () => ({ tools: toolsFor(era) }));

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const params = request.params as typeof request.params & Record<string, unknown>;
    const tool = TOOLS.get(params.name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${params.name} not found`);
    try {
      // A 2026-07-28 retry of request_budget: the request exists; see where the owner stands.
      const round = era === 'modern' && tool.name === 'request_budget' ? budgetRoundOf(ctx) : undefined;
      if (round) {
        const next = await continueBudgetRound(deps, agent, rounds(), round, ctx);
        return 'retry' in next ? next.retry : viewResult(tool, toAgentSessionView(next.session));
      }
      const outcome = await tool.run(context, parseInput(tool.input, params.arguments));
      switch (outcome.kind) {
        case 'view':
          return viewResult(tool, outcome.view);
        case 'unfinished':
          return { isError: true, content: [{ type: 'text', text: outcome.message }], structuredContent: outcome.details };
        case 'payment':
          // 2026-07-28: the server hands out a task only while the payment is not final. 2025: the
          // client asked for a task, so it gets one, completed already when the payment is.
          if (tool.tasks && clientTakesTask(era, params, ctx) && (era === 'legacy' || !outcome.final)) {
            return createTaskResult(era, await getPaymentTask(deps, agent, outcome.payment.intent_id));
          }
          return viewResult(tool, outcome.payment);
        case 'budget':
          // The owner decides: 2025 clients that take tasks poll one; 2026 clients that open URLs
          // ask their person to open the approval link; others get the link to hand on.
          if (era === 'legacy' && clientTakesTask(era, params, ctx)) return createTaskResult(era, budgetTaskOf(outcome.session));
          if (era === 'modern' && clientOpensUrls(ctx)) return await askOwnerToDecide(rounds(), outcome.session, ctx);
          return viewResult(tool, toAgentSessionView(outcome.session));
      }
    } catch (error) {
      return errorResult(error, tool.name);
    }
  });

  registerTaskMethods(server, {
    deps,
    agent,
    era,
    resultOf: taskResult,
    fault: (error, method) => {
      deps.logger.error({ err: error, method, agentId: agent.agentId, reqId: requestId }, 'MCP task method failed');
      return new ProtocolError(ProtocolErrorCode.InternalError, `Internal server error (request ${requestId}); try again later`);
    },
  });

  return server;
}
