/**
 * The agent API as MCP tools (Streamable HTTP at /functions/v1/mcp-server/mcp): the same
 * services as the REST routes, for the same authenticated agent. Each tool's input schema is the
 * REST contract from @purser/core, with field descriptions an LLM can act on: tools/list shows
 * it, and the tool parses the arguments with it. Every expected failure (a bad input, a refusal,
 * a seller that failed) comes back as a tool result with isError and the code and message REST
 * answers, so the model reads the reason instead of a protocol error.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  AGENT_TRANSACTIONS_LIMIT,
  agentPaymentInput,
  x402FetchInput,
  x402ProxyFields,
  x402RequirementsInput,
  x402SignPaymentFields,
} from '@purser/core';
import type { AuthenticatedAgent } from '../../services/agents/authenticate-agent';
import { listAgentTransactions } from '../../services/agents/list-agent-transactions';
import { getAgentBalance } from '../../services/agent-api/get-agent-balance';
import { getAgentInfo } from '../../services/agent-api/get-agent-info';
import { makeAgentPayment } from '../../services/agent-api/make-agent-payment';
import { fetchWithX402, proxyX402Request, readX402Requirements, signX402Payment } from '../../services/x402/x402-services';
import type { AppDeps } from '../../deps';
import { errorAnswer } from '../error-answer';
import { parseInput } from '../request-input';

export const MCP_SERVER_INFO = { name: 'purser-agent', version: '1.0.0' };

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
const IDEMPOTENCY_KEY = 'Repeat a call with the same key to get the same payment back instead of paying twice';
const UPSTREAM = {
  url: 'The http(s) URL of the paid resource',
  method: 'HTTP method; GET when left out',
  headers: 'Request headers to send upstream',
  body: 'Request body to send upstream, as text (JSON-encode it yourself)',
};

const paymentShape = described(agentPaymentInput.shape, {
  amount: AMOUNT,
  currency: 'USDC when left out',
  to_address: 'Who is paid: an address or account id',
  description: 'What the payment is for; the owner sees it',
  category: 'Spending category, e.g. "api", "data", "compute"',
  metadata: 'Your own references, kept with the transaction',
  rail: 'ledger (an internal transfer, the default); solana, card and bank are sandbox rails',
  idempotency_key: IDEMPOTENCY_KEY,
});

const requirementsShape = described(x402RequirementsInput.shape, UPSTREAM);

const signPaymentShape = described(x402SignPaymentFields.shape, {
  requirement: 'The chosen entry of the accepts list, unchanged',
  x402_version: 'The x402Version of the 402 answer (2 when left out)',
  url: 'The URL being paid for',
  idempotency_key: IDEMPOTENCY_KEY,
});

// Step 3 exists to send the signed header: the tool asks for it, under one name. REST also
// takes it under the spec's two other names, and without it proxies an unpaid call.
const { x_payment_header: _x, xPaymentHeader: _spec, ...proxyFields } = x402ProxyFields.shape;
const proxyShape = described(
  { ...proxyFields, payment_header: x402ProxyFields.shape.payment_header.unwrap() },
  { ...UPSTREAM, payment_header: 'xPaymentHeader from x402_sign_payment' },
);

const fetchShape = described(x402FetchInput.shape, { ...UPSTREAM, max_amount: 'Never pay more than this many dollars', idempotency_key: IDEMPOTENCY_KEY });

/**
 * What tools/list shows of a tool's input: the contract's JSON Schema. The arguments themselves
 * are parsed inside the tool with the contract (parseInput), so a bad call answers
 * `VALIDATION_FAILED: <the first problem>` as every other surface does, rather than the SDK's
 * own validation error.
 */
function listedAs(contract: z.ZodObject): z.ZodType<Record<string, unknown>> {
  const { $schema: _draft, ...jsonSchema } = z.toJSONSchema(contract, { io: 'input' });
  return z.looseObject({}).meta(jsonSchema);
}

function resultOf(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value as Record<string, unknown> };
}

/**
 * A fresh server per request (stateless Streamable HTTP), bound to the authenticated agent.
 * `requestId` is the HTTP request's id, quoted in an unexpected failure's result.
 */
export function createAgentMcpServer(deps: AppDeps, agent: AuthenticatedAgent, requestId: string): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, {
    instructions:
      'Purser pays on behalf of this agent. Check get_balance before paying; make_payment pays an address from the agent wallet; x402_fetch reads a paid URL, paying its HTTP 402 within the spending rules. Payments above the approval threshold wait for the owner.',
  });

  const tool = <T extends z.ZodRawShape>(name: string, description: string, shape: T, handler: (args: z.output<z.ZodObject<T>>) => Promise<unknown>) => {
    const contract = z.object(shape);
    return server.registerTool(name, { description, inputSchema: listedAs(contract) }, async (args) => {
      try {
        return resultOf(await handler(parseInput(contract, args)));
      } catch (error) {
        const answer = errorAnswer(error, 'mcp');
        if (answer.log !== 'fault') return { isError: true, content: [{ type: 'text', text: `${answer.code}: ${answer.message}` }] };
        // Anything else may carry internals (a query, a driver's words): the model gets the
        // request id to quote, the log gets the error.
        deps.logger.error({ err: error, tool: name, agentId: agent.agentId, reqId: requestId }, 'MCP tool failed');
        return { isError: true, content: [{ type: 'text', text: `${answer.code}: ${answer.message} (request ${requestId}); try again later` }] };
      }
    });
  };

  tool('get_balance', "The agent's USDC and USDT balances (ledger and on chain) and the network it pays on.", {}, () => getAgentBalance(deps, agent));

  tool(
    'make_payment',
    'Pay an address from the agent wallet. Answers once the payment settles, or says it waits for the owner to approve it. Refused with a reason when it breaks a spending rule or policy or the balance is short.',
    paymentShape,
    async (args) => (await makeAgentPayment(deps, agent, args, {})).payment,
  );

  tool('list_transactions', `The agent's latest ${AGENT_TRANSACTIONS_LIMIT} transactions, newest first, with categories and metadata.`, {}, async () => ({
    transactions: await listAgentTransactions(deps, agent.ownerId, agent.agentId, { limit: AGENT_TRANSACTIONS_LIMIT }),
  }));

  tool('get_info', "The agent's DID, verifiable credential, wallet addresses, spending rules and x402 capabilities.", {}, () => getAgentInfo(deps, agent));

  tool(
    'x402_requirements',
    "Step 1 of an x402 payment: fetch a URL and read its HTTP 402 answer. Returns the seller's accepted payments and `recommended`, the one to sign.",
    requirementsShape,
    (args) => readX402Requirements(deps, args),
  );

  tool(
    'x402_sign_payment',
    'Step 2: sign a payment for a requirement (pass `recommended` from x402_requirements). Spending rules, policies and the balance are checked first; failure usually means the wallet needs funding or the price exceeds the limits. Returns xPaymentHeader.',
    signPaymentShape,
    async (args) => (await signX402Payment(deps, agent, args)).view,
  );

  tool(
    'x402_proxy',
    'Step 3: call the URL again with the signed payment header. Returns the seller\'s status, headers, body and payment response (with the transaction hash).',
    proxyShape,
    (args) => proxyX402Request(deps, agent, args),
  );

  tool(
    'x402_fetch',
    'All three x402 steps in one: fetch a URL and, if it answers 402, pay it within the spending rules and return the paid answer. Set max_amount to cap the price.',
    fetchShape,
    async (args) => (await fetchWithX402(deps, agent, args)).view,
  );

  return server;
}
