/**
 * The agent API (`/functions/v1/mcp-server`): balance, payment, transactions, info, the paid
 * fetch (x402 and MPP sellers) and the x402 calls. Every call sends the agent's DID in
 * `X-Agent-DID` and its API key as the bearer token. Every method answers an ApiPromise: await
 * it for the data, or `.withResponse()` for the answer's metadata too (request id, idempotent
 * replay, rate limit).
 */
import { ApiPromise, type PagePromise, type WithResponse } from './api-promise';
import { x402PriceCapErrorFrom } from './errors';
import { OPERATIONS as op } from './operations';
import { Transport, type ConnectionOptions, type MoneyRequestOptions, type RequestOptions } from './transport';
import type {
  AgentBalance,
  AgentBudget,
  AgentBudgetList,
  AgentInfo,
  AgentPayment,
  AgentPaymentBody,
  AgentRequestedBudget,
  AgentTransaction,
  AgentTransactionList,
  PaidFetchBody,
  PaidFetchResult,
  PaymentReceipt,
  RequestBudgetBody,
  X402ChannelClose,
  X402ChannelDetail,
  X402Channels,
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

/**
 * The price cap of a paid fetch that names none, in dollars: ten cents. x402 and MPP sellers
 * price calls in cents and fractions of a cent; a seller asking more is refused before anything
 * is signed, unless the call raises its cap. The agent's spending rules still apply below any cap.
 */
export const DEFAULT_X402_MAX_AMOUNT = '0.10';

/**
 * POST /pay/fetch (or its first name, /x402/fetch), always with a cap: the caller's
 * `max_amount`, or the default. The API's refusal of a higher price becomes an
 * X402PriceCapError; its 202 (waiting for the owner) the `pending_approval` result.
 */
export async function sendPaidFetch(
  t: Transport,
  body: PaidFetchBody,
  options?: MoneyRequestOptions,
  operation: typeof op.payFetch | typeof op.x402Fetch = op.payFetch,
): Promise<WithResponse<PaidFetchResult>> {
  const maxAmount = body.max_amount ?? DEFAULT_X402_MAX_AMOUNT;
  try {
    const { data, response } = await t.sendWithResponse<X402UpstreamResponse | X402SignedPayment>(operation, { body: { ...body, max_amount: maxAmount }, options });
    const result: PaidFetchResult =
      response.status === 202 ? { kind: 'pending_approval', payment: data as X402SignedPayment } : { kind: 'response', response: data as X402UpstreamResponse };
    return { data: result, response };
  } catch (error) {
    throw x402PriceCapErrorFrom(error, String(maxAmount));
  }
}

function x402Api(t: Transport) {
  return {
    /** Calls `url` and reads its 402 answer: the seller's `accepts` and the `recommended` one to sign. Pays nothing. */
    requirements: (body: X402RequirementsBody, options?: RequestOptions) => t.call<X402Requirements>(op.x402Requirements, { body, options }),
    /**
     * Signs a payment for a requirement after spending rules, policies and balance allow it and
     * the funds are held. `status: 'pending_approval'` (HTTP 202) carries no header yet: repeat
     * the call with the same `idempotencyKey` after the owner approves. Money-moving: idempotent.
     */
    signPayment: (body: X402SignPaymentBody, options?: MoneyRequestOptions) => t.call<X402SignedPayment>(op.x402SignPayment, { body, options }),
    /** Calls the seller with a signed payment header; answers the seller's status, headers and body. */
    proxy: (body: X402ProxyBody, options?: RequestOptions) => t.call<X402UpstreamResponse>(op.x402Proxy, { body, options }),
    /**
     * `paidFetch` under its first name (POST /x402/fetch, which the API keeps as an alias): the
     * same call and answer, so it pays MPP sellers too.
     */
    fetch: (body: PaidFetchBody, options?: MoneyRequestOptions): ApiPromise<PaidFetchResult> => new ApiPromise(sendPaidFetch(t, body, options, op.x402Fetch)),
    /**
     * The agent's batch-settlement channels (fetch opens one for a seller that offers only
     * channels): the deposit held, what the vouchers signed, how many, and how each ended.
     */
    channels: (options?: RequestOptions) => t.call<X402Channels>(op.agentChannels, { options }),
    /** One channel by its `intent_id`, with its vouchers: amount, running total, resource and time of each paid call. */
    channel: (intentId: string, options?: RequestOptions) => t.call<X402ChannelDetail>(op.agentChannel, { params: { intentId }, options }),
    /**
     * Closes a channel by its `intent_id`: the seller is asked to claim and refund; the ledger
     * captures what the chain says it claimed and returns the rest of the deposit.
     */
    closeChannel: (intentId: string, options?: RequestOptions) => t.call<X402ChannelClose>(op.agentCloseChannel, { params: { intentId }, options }),
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
    const credentials = () => ({ 'x-agent-did': did, authorization: `Bearer ${apiKey}` });
    this.transport = new Transport(connection, credentials);
    this.x402 = x402Api(this.transport);
    transports.set(this, (fetch) => new Transport({ ...connection, fetch }, credentials));
  }

  /** USDC and USDT balances, in the ledger (what the agent may spend) and on chain. */
  balance(options?: RequestOptions): ApiPromise<AgentBalance> {
    return this.transport.call<AgentBalance>(op.agentBalance, { options });
  }

  /**
   * Pays from the agent's wallet and waits for the outcome: `status: 'settled'` (HTTP 200), or
   * `pending_approval` / `processing` (HTTP 202); a refusal throws a PurserApiError (422).
   * Money-moving: idempotent.
   */
  pay(body: AgentPaymentBody, options?: MoneyRequestOptions): ApiPromise<AgentPayment> {
    return this.transport.call<AgentPayment>(op.agentPayment, { body, options });
  }

  /**
   * Where one of the agent's payments stands, by the `intent_id` pay() answered. Only reads: a
   * refused payment answers with its status and failure. The way to follow a payment that
   * waits for the owner without paying twice.
   */
  payment(intentId: string, options?: RequestOptions): ApiPromise<AgentPayment> {
    return this.transport.call<AgentPayment>(op.agentPaymentStatus, { params: { intentId }, options });
  }

  /** payment(), by the idempotency key the payment was made with. */
  paymentByKey(idempotencyKey: string, options?: RequestOptions): ApiPromise<AgentPayment> {
    return this.transport.call<AgentPayment>(op.agentPaymentByKey, { query: { idempotency_key: idempotencyKey }, options });
  }

  /** The receipt of one of the agent's settled payments, signed by the deployment's issuer key. */
  paymentReceipt(intentId: string, options?: RequestOptions): ApiPromise<PaymentReceipt> {
    return this.transport.call<PaymentReceipt>(op.agentPaymentReceipt, { params: { intentId }, options });
  }

  /**
   * The agent's transactions, newest first: awaited, the first page (up to `limit`, at most 50);
   * `for await (const tx of agent.transactions())` walks every page.
   */
  transactions(query: { limit?: number } = {}, options?: RequestOptions): PagePromise<AgentTransactionList, AgentTransaction> {
    return this.transport.list<AgentTransactionList, AgentTransaction>(
      op.agentTransactions,
      { query, options },
      (page) => page.transactions,
      (page) => page.next_cursor,
    );
  }

  /** DID, credential, wallet addresses, spending rules, what is left of them, and x402 capabilities. */
  info(options?: RequestOptions): ApiPromise<AgentInfo> {
    return this.transport.call<AgentInfo>(op.agentInfo, { options });
  }

  /**
   * Asks the owner for a budget for one task (a payment session): it waits as `requested` until
   * the owner grants it (perhaps for less, or until sooner) or rejects it. The answer carries
   * `approval_url`, a one-time link (30 minutes) to hand the owner, who decides there signed in.
   * Follow it with budget(); once `open`, pass its `session_id` with the payments it is for.
   */
  requestBudget(body: RequestBudgetBody, options?: RequestOptions): ApiPromise<AgentRequestedBudget> {
    return this.transport.call<AgentRequestedBudget>(op.agentRequestBudget, { body, options });
  }

  /** One of the agent's budgets: status, what it spent and what remains, the owner's note, and what to do next. */
  budget(sessionId: string, options?: RequestOptions): ApiPromise<AgentBudget> {
    return this.transport.call<AgentBudget>(op.agentBudget, { params: { sessionId }, options });
  }

  /** The agent's latest 50 budgets, newest first. */
  budgets(options?: RequestOptions): ApiPromise<AgentBudgetList> {
    return this.transport.call<AgentBudgetList>(op.agentBudgets, { options });
  }

  /**
   * Fetches `url`, paying its 402 in whichever protocol the seller speaks: x402, or MPP (the
   * Machine Payments Protocol); offered both, the one the owner's policies prefer, else the
   * cheaper. Never above `max_amount` ($0.10 when absent: DEFAULT_X402_MAX_AMOUNT): a higher
   * price throws an X402PriceCapError and nothing is signed. The answer's `payment.protocol`
   * names the protocol paid, and `mpp_receipt` an MPP seller's receipt, checked on chain. A
   * payment that waits for the owner comes back as `pending_approval`. Money-moving: idempotent.
   * `wrapFetch` gives the same call the shape of `fetch` (a Response with the body's exact bytes).
   */
  paidFetch(body: PaidFetchBody, options?: MoneyRequestOptions): ApiPromise<PaidFetchResult> {
    return new ApiPromise(sendPaidFetch(this.transport, body, options));
  }
}

/** Each client's transport rebuilt around another fetch (wrapFetch's); internal, not exported by the package. */
const transports = new WeakMap<PurserAgentClient, (fetch: typeof globalThis.fetch) => Transport>();

export function agentTransport(agent: PurserAgentClient, fetch: typeof globalThis.fetch): Transport {
  const make = transports.get(agent);
  if (!make) throw new TypeError('agent must be a PurserAgentClient or its options ({ baseUrl, did, apiKey })');
  return make(fetch);
}
