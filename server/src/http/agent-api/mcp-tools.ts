/**
 * The agent API as MCP tools (Streamable HTTP at /functions/v1/mcp-server/mcp): the same
 * services as the REST routes, for the same authenticated agent. Each tool has a zod input
 * schema and a description an LLM can act on; inputs are validated again by the REST
 * contracts, and every expected failure (a refusal, a bad input, a seller that failed) comes
 * back as a tool result with isError, so the model reads the reason instead of a protocol error.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  AGENT_TRANSACTIONS_LIMIT,
  agentPaymentInput,
  x402FetchInput,
  x402ProxyInput,
  x402RequirementsInput,
  x402SignPaymentInput,
} from '@purser/core';
import type { AuthenticatedAgent } from '../../services/agents/authenticate-agent';
import { listAgentTransactions } from '../../services/agents/list-agent-transactions';
import { getAgentBalance } from '../../services/agent-api/get-agent-balance';
import { getAgentInfo } from '../../services/agent-api/get-agent-info';
import { makeAgentPayment } from '../../services/agent-api/make-agent-payment';
import { fetchWithX402, proxyX402Request, readX402Requirements, signX402Payment } from '../../services/x402/x402-services';
import type { AppDeps } from '../../trpc/context';
import { errorAnswer } from '../error-answer';
import { parseInput } from '../request-input';

export const MCP_SERVER_INFO = { name: 'purser-agent', version: '1.0.0' };

const amount = z.union([z.number(), z.string()]).describe('Dollars, e.g. 1.25 or "0.000001" (at most 6 decimals)');
const idempotencyKey = z.string().optional().describe('Repeat a call with the same key to get the same payment back instead of paying twice');
const upstream = {
  url: z.string().describe('The http(s) URL of the paid resource'),
  method: z.string().optional().describe('HTTP method; GET when left out'),
  headers: z.record(z.string(), z.string()).optional().describe('Request headers to send upstream'),
  body: z.string().optional().describe('Request body to send upstream, as text (JSON-encode it yourself)'),
};

type Handler = (args: Record<string, unknown>) => Promise<unknown>;

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

  const tool = (name: string, description: string, inputSchema: z.ZodRawShape, handler: Handler) =>
    server.registerTool(name, { description, inputSchema }, async (args: Record<string, unknown>) => {
      try {
        return resultOf(await handler(args));
      } catch (error) {
        const answer = errorAnswer(error, 'mcp');
        if (answer.log !== 'fault') return { isError: true, content: [{ type: 'text', text: `${answer.code}: ${answer.message}` }] };
        // Anything else may carry internals (a query, a driver's words): the model gets the
        // request id to quote, the log gets the error.
        deps.logger.error({ err: error, tool: name, agentId: agent.agentId, reqId: requestId }, 'MCP tool failed');
        return { isError: true, content: [{ type: 'text', text: `${answer.code}: ${answer.message} (request ${requestId}); try again later` }] };
      }
    });

  tool('get_balance', "The agent's USDC and USDT balances (ledger and on chain) and the network it pays on.", {}, () => getAgentBalance(deps, agent));

  tool(
    'make_payment',
    'Pay an address from the agent wallet. Answers once the payment settles, or says it waits for the owner to approve it. Refused with a reason when it breaks a spending rule or policy or the balance is short.',
    {
      amount,
      currency: z.enum(['USDC', 'USDT']).optional().describe('USDC when left out'),
      to_address: z.string().describe('Who is paid: an address or account id'),
      description: z.string().optional().describe('What the payment is for; the owner sees it'),
      category: z.string().optional().describe('Spending category, e.g. "api", "data", "compute"'),
      metadata: z.record(z.string(), z.unknown()).optional().describe('Your own references, kept with the transaction'),
      rail: z.enum(['ledger', 'solana', 'card', 'bank']).optional().describe('ledger (an internal transfer, the default); solana, card and bank are sandbox rails'),
      idempotency_key: idempotencyKey,
    },
    async (args) => {
      const input = parseInput(agentPaymentInput, args);
      return (await makeAgentPayment(deps, agent, input, {})).payment;
    },
  );

  tool('list_transactions', `The agent's latest ${AGENT_TRANSACTIONS_LIMIT} transactions, newest first, with categories and metadata.`, {}, async () => ({
    transactions: await listAgentTransactions(deps, agent.ownerId, agent.agentId, { limit: AGENT_TRANSACTIONS_LIMIT }),
  }));

  tool('get_info', "The agent's DID, verifiable credential, wallet addresses, spending rules and x402 capabilities.", {}, () => getAgentInfo(deps, agent));

  tool(
    'x402_requirements',
    "Step 1 of an x402 payment: fetch a URL and read its HTTP 402 answer. Returns the seller's accepted payments and `recommended`, the one to sign.",
    upstream,
    (args) => readX402Requirements(deps, parseInput(x402RequirementsInput, args)),
  );

  tool(
    'x402_sign_payment',
    'Step 2: sign a payment for a requirement (pass `recommended` from x402_requirements). Spending rules, policies and the balance are checked first; failure usually means the wallet needs funding or the price exceeds the limits. Returns xPaymentHeader.',
    {
      requirement: z.record(z.string(), z.unknown()).describe('The chosen entry of the accepts list, unchanged'),
      x402_version: z.number().optional().describe('The x402Version of the 402 answer (2 when left out)'),
      url: z.string().optional().describe('The URL being paid for'),
      description: z.string().optional(),
      category: z.string().optional(),
      idempotency_key: idempotencyKey,
    },
    async (args) => (await signX402Payment(deps, agent, parseInput(x402SignPaymentInput, args))).view,
  );

  tool(
    'x402_proxy',
    'Step 3: call the URL again with the signed payment header. Returns the seller\'s status, headers, body and payment response (with the transaction hash).',
    { ...upstream, payment_header: z.string().describe('xPaymentHeader from x402_sign_payment') },
    (args) => proxyX402Request(deps, agent, parseInput(x402ProxyInput, args)),
  );

  tool(
    'x402_fetch',
    'All three x402 steps in one: fetch a URL and, if it answers 402, pay it within the spending rules and return the paid answer. Set max_amount to cap the price.',
    { ...upstream, max_amount: amount.optional().describe('Never pay more than this many dollars'), description: z.string().optional(), category: z.string().optional(), idempotency_key: idempotencyKey },
    async (args) => (await fetchWithX402(deps, agent, parseInput(x402FetchInput, args))).view,
  );

  return server;
}
