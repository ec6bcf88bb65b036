/**
 * The agent API (`/functions/v1/mcp-server`): balance, payment, transactions, info and the x402
 * calls. Every call sends the agent's DID in `X-Agent-DID` and its API key as the bearer token.
 */
import { OPERATIONS as op } from './operations';
import { Transport, type ConnectionOptions, type MoneyRequestOptions, type RequestOptions } from './transport';
import type {
  AgentBalance,
  AgentInfo,
  AgentPayment,
  AgentPaymentBody,
  AgentTransactionList,
  X402FetchBody,
  X402FetchResult,
  X402ProxyBody,
  X402Requirements,
  X402RequirementsBody,
  X402SignedPayment,
  X402SignPaymentBody,
  X402UpstreamResponse,
} from './types';

export interface AgentClientOptions extends ConnectionOptions {
  /** The agent's DID, `did:agnic:<agent id>`. Public: it selects the agent, the key proves it. */
  did: string;
  /** The agent's API key (`pak_...`), shown once when the agent was created or its key rotated. */
  apiKey: string;
}

function x402Api(t: Transport) {
  return {
    /** Calls `url` and reads its 402 answer: the seller's `accepts` and the `recommended` one to sign. Pays nothing. */
    requirements: async (body: X402RequirementsBody, options?: RequestOptions) => (await t.send<X402Requirements>(op.x402Requirements, { body, options })).data,
    /**
     * Signs a payment for a requirement after spending rules, policies and balance allow it and
     * the funds are held. `status: 'pending_approval'` (HTTP 202) carries no header yet: repeat
     * the call with the same `idempotencyKey` after the owner approves. Money-moving: idempotent.
     */
    signPayment: async (body: X402SignPaymentBody, options?: MoneyRequestOptions) =>
      (await t.send<X402SignedPayment>(op.x402SignPayment, { body, options })).data,
    /** Calls the seller with a signed payment header; answers the seller's status, headers and body. */
    proxy: async (body: X402ProxyBody, options?: RequestOptions) => (await t.send<X402UpstreamResponse>(op.x402Proxy, { body, options })).data,
    /**
     * Requirements, payment and paid call in one: fetches `url`, paying its 402 if it asks (never
     * above `max_amount`). A payment that waits for the owner comes back as `pending_approval`.
     * Money-moving: idempotent.
     */
    fetch: async (body: X402FetchBody, options?: MoneyRequestOptions): Promise<X402FetchResult> => {
      const { status, data } = await t.send<X402UpstreamResponse | X402SignedPayment>(op.x402Fetch, { body, options });
      return status === 202 ? { kind: 'pending_approval', payment: data as X402SignedPayment } : { kind: 'response', response: data as X402UpstreamResponse };
    },
  };
}

export type X402Api = ReturnType<typeof x402Api>;

/**
 * ```ts
 * const agent = new PurserAgentClient({ baseUrl: 'http://127.0.0.1:3000', did: process.env.AGENT_DID!, apiKey: process.env.AGENT_API_KEY! });
 * const { balances } = await agent.balance();
 * ```
 */
export class PurserAgentClient {
  readonly x402: X402Api;
  private readonly transport: Transport;

  constructor(options: AgentClientOptions) {
    const { did, apiKey, ...connection } = options;
    this.transport = new Transport(connection, () => ({ 'x-agent-did': did, authorization: `Bearer ${apiKey}` }));
    this.x402 = x402Api(this.transport);
  }

  /** USDC and USDT balances, in the ledger (what the agent may spend) and on chain. */
  async balance(options?: RequestOptions): Promise<AgentBalance> {
    return (await this.transport.send<AgentBalance>(op.agentBalance, { options })).data;
  }

  /**
   * Pays from the agent's wallet and waits for the outcome: `status: 'settled'` (HTTP 200), or
   * `pending_approval` / `processing` (HTTP 202); a refusal throws a PurserApiError (422).
   * Money-moving: idempotent.
   */
  async pay(body: AgentPaymentBody, options?: MoneyRequestOptions): Promise<AgentPayment> {
    return (await this.transport.send<AgentPayment>(op.agentPayment, { body, options })).data;
  }

  /** The agent's latest 50 transactions, newest first. */
  async transactions(options?: RequestOptions): Promise<AgentTransactionList> {
    return (await this.transport.send<AgentTransactionList>(op.agentTransactions, { options })).data;
  }

  /** DID, credential, wallet addresses, spending rules, what is left of them, and x402 capabilities. */
  async info(options?: RequestOptions): Promise<AgentInfo> {
    return (await this.transport.send<AgentInfo>(op.agentInfo, { options })).data;
  }
}
