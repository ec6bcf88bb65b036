/**
 * The agent API under /functions/v1/mcp-server (spec section 7, "MCP service"): what agents
 * send to the REST endpoints and the MCP tools, and what they get back. Field names follow
 * the spec's samples (snake_case: to_address, x_payment_header); amounts in are dollars,
 * amounts out are dollars plus the exact decimal string.
 */
import { z } from 'zod';
import { CURRENCIES } from '../money';
import { agentCredentialView, agentTransactionView, spendingRulesView } from './agents';
import { INTENT_STATUSES, metadataSchema, railSchema, sellerReceiptView } from './intents';
import { mppReceiptView, PAYMENT_PROTOCOLS } from './payment-protocols';
import { currencySchema, dollarAmountSchema, idempotencyKeySchema } from './wallets';

export const AGENT_API_PREFIX = '/functions/v1/mcp-server';
export const AGENT_TRANSACTIONS_LIMIT = 50;
export const AGENT_PAYMENT_AMOUNT_MESSAGE = 'amount must be a positive number of dollars with at most 6 decimals';

function text(field: string, max: number) {
  return z
    .string({ error: `${field} must be text` })
    .trim()
    .min(1, { error: `${field} must not be blank` })
    .max(max, { error: `${field} must be at most ${max} characters` });
}

export const agentPaymentInput = z.object({
  amount: dollarAmountSchema(AGENT_PAYMENT_AMOUNT_MESSAGE),
  currency: currencySchema.default('USDC'),
  to_address: text('to_address', 200),
  description: z.string({ error: 'description must be text' }).trim().max(500, { error: 'description must be at most 500 characters' }).default(''),
  category: text('category', 100).optional(),
  metadata: metadataSchema.default({}),
  /** The ledger (an internal custodial transfer) unless the agent asks for another rail. */
  rail: railSchema.exclude(['x402-base']).default('ledger'),
  idempotency_key: idempotencyKeySchema.optional(),
  /** The payment session (issue 43) to charge the payment to: one of the agent's own, open, covering it. */
  session_id: z.uuid({ error: 'session_id must be the id of one of your payment sessions' }).optional(),
});
export type AgentPaymentBody = z.input<typeof agentPaymentInput>;
export type AgentPaymentInput = z.output<typeof agentPaymentInput>;

// ---------------------------------------------------------------- x402

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;

export const upstreamUrlSchema = z
  .string({ error: 'url must be an absolute http:// or https:// URL' })
  .trim()
  .max(2048, { error: 'url must be at most 2048 characters' })
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), { error: 'url must be an absolute http:// or https:// URL' });

/** The upstream request an agent asks us to make. */
const upstreamRequest = {
  url: upstreamUrlSchema,
  method: z
    .string()
    .transform((value) => value.toUpperCase())
    .pipe(z.enum(HTTP_METHODS, { error: `method must be one of ${HTTP_METHODS.join(', ')}` }))
    .default('GET'),
  headers: z.record(z.string(), z.string({ error: 'header values must be text' }), { error: 'headers must be an object of names and values' }).default({}),
  body: z.string({ error: 'body must be text (JSON-encode it yourself)' }).max(1024 * 512, { error: 'body must be at most 512 KiB' }).optional(),
};

/**
 * One entry of a seller's `accepts` list, as the protocol carries it: v2 names the price
 * `amount`, v1 `maxAmountRequired`. Unknown fields are kept and passed through untouched.
 */
export const x402RequirementSchema = z.looseObject({
  scheme: z.string({ error: 'requirement.scheme is required' }),
  network: z.string({ error: 'requirement.network is required' }),
  amount: z.string().regex(/^\d+$/, { error: 'requirement.amount must be whole atomic units' }).optional(),
  maxAmountRequired: z.string().regex(/^\d+$/, { error: 'requirement.maxAmountRequired must be whole atomic units' }).optional(),
  asset: z.string({ error: 'requirement.asset is required' }),
  payTo: z.string({ error: 'requirement.payTo is required' }),
  maxTimeoutSeconds: z.number({ error: 'requirement.maxTimeoutSeconds must be a number' }).int().positive().max(86_400),
  extra: z.record(z.string(), z.unknown()).optional(),
});
export type X402Requirement = z.infer<typeof x402RequirementSchema>;

export const x402VersionSchema = z.union([z.literal(1), z.literal(2)], { error: 'x402_version must be 1 or 2' });

export const x402RequirementsInput = z.object(upstreamRequest);
export type X402RequirementsInput = z.output<typeof x402RequirementsInput>;

/** `{ requirement, ... }`: the requirement to sign, with the URL it pays for and the payment's description and category. */
export const x402SignPaymentFields = z.object({
  requirement: x402RequirementSchema,
  x402_version: x402VersionSchema.default(2),
  url: upstreamUrlSchema.optional(),
  description: z.string().trim().max(500, { error: 'description must be at most 500 characters' }).optional(),
  category: text('category', 100).optional(),
  idempotency_key: idempotencyKeySchema.optional(),
  /** The payment session (issue 43) to charge the payment to: one of the agent's own, open, covering it. */
  session_id: z.uuid({ error: 'session_id must be the id of one of your payment sessions' }).optional(),
  /**
   * x402 v2: the 402's `extensions`, as the seller sent them. Purser answers the ones it supports
   * (payment-identifier: the payment's identifier, derived from the Idempotency-Key).
   */
  extensions: z.record(z.string(), z.unknown()).optional(),
});

/** The body is the chosen requirement, as the spec documents it, or x402SignPaymentFields. */
export const x402SignPaymentInput = z.preprocess(
  (body) => (body && typeof body === 'object' && !('requirement' in body) ? { requirement: body } : body),
  x402SignPaymentFields,
);
export type X402SignPaymentInput = z.output<typeof x402SignPaymentInput>;

/** The upstream request with the signed payment header, under any of its three names. */
export const x402ProxyFields = z.object({
  ...upstreamRequest,
  payment_header: z.string().trim().min(1).max(16_384).optional(),
  /** The spec's names for the same header value. */
  x_payment_header: z.string().trim().min(1).max(16_384).optional(),
  xPaymentHeader: z.string().trim().min(1).max(16_384).optional(),
});

export const x402ProxyInput = x402ProxyFields
  .transform(({ x_payment_header, xPaymentHeader, payment_header, ...rest }) => ({ ...rest, payment_header: payment_header ?? x_payment_header ?? xPaymentHeader }));
export type X402ProxyInput = z.output<typeof x402ProxyInput>;

export const x402FetchInput = z.object({
  ...upstreamRequest,
  /** Refuse to pay more than this many dollars for this request. */
  max_amount: dollarAmountSchema('max_amount must be a positive number of dollars with at most 6 decimals').optional(),
  description: z.string().trim().max(500, { error: 'description must be at most 500 characters' }).optional(),
  category: text('category', 100).optional(),
  idempotency_key: idempotencyKeySchema.optional(),
  /** The payment session (issue 43) to charge the payment to: one of the agent's own, open, covering it. */
  session_id: z.uuid({ error: 'session_id must be the id of one of your payment sessions' }).optional(),
});
export type X402FetchInput = z.output<typeof x402FetchInput>;

// ---------------------------------------------------------------- responses

const money = { amount: z.number(), amount_exact: z.string() };

export const networkView = z.object({
  network: z.string(),
  name: z.string(),
  chain_id: z.number(),
  sandbox: z.boolean(),
  usdc_address: z.string(),
  explorer_url: z.string().nullable(),
  faucet_url: z.string().nullable(),
});
export type NetworkView = z.infer<typeof networkView>;

export const currencyBalanceView = z.object({
  ledger: z.number(),
  ledger_exact: z.string(),
  /** The agent's EVM address on the network; null where the token has no contract there. */
  on_chain: z.number().nullable(),
  on_chain_exact: z.string().nullable(),
});

export const agentBalanceView = z.object({
  agent_id: z.string(),
  did: z.string(),
  wallet_address: z.string().nullable(),
  balances: z.object(Object.fromEntries(CURRENCIES.map((currency) => [currency, currencyBalanceView])) as Record<(typeof CURRENCIES)[number], typeof currencyBalanceView>),
  /** Gas money on the agent's address, in wei (the facilitator pays x402 gas). */
  eth_wei: z.string().nullable(),
  network: networkView,
  /** Set when the chain could not be read; ledger balances are still exact. */
  on_chain_error: z.string().nullable(),
});
export type AgentBalanceView = z.infer<typeof agentBalanceView>;

export const agentPaymentView = z.object({
  intent_id: z.string(),
  status: z.enum(INTENT_STATUSES),
  ...money,
  currency: z.enum(CURRENCIES),
  to_address: z.string().nullable(),
  rail: railSchema,
  sandbox: z.boolean(),
  failure_code: z.string().nullable(),
  failure_message: z.string().nullable(),
  settled_at: z.string().nullable(),
  /** What to do next when the payment is not settled yet. */
  message: z.string(),
});
export type AgentPaymentView = z.infer<typeof agentPaymentView>;

/** GET /payment/{intentId}: one of the agent's payments, read. */
export const agentPaymentParams = z.object({ intentId: z.uuid({ error: 'intentId must be the intent_id a payment answered' }) });

/** GET /payment?idempotency_key=…: the agent's payment made with that key. */
export const agentPaymentByKeyQuery = z.object({ idempotency_key: idempotencyKeySchema });

export const AGENT_TRANSACTIONS_CURSOR_MESSAGE = 'cursor must be the next_cursor of an earlier page, unchanged';

/** GET /transactions: a page of the agent's transactions, newest first. */
export const agentTransactionsQuery = z.object({
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${AGENT_TRANSACTIONS_LIMIT}` })
    .int({ error: `limit must be a whole number from 1 to ${AGENT_TRANSACTIONS_LIMIT}` })
    .min(1, { error: `limit must be a whole number from 1 to ${AGENT_TRANSACTIONS_LIMIT}` })
    .max(AGENT_TRANSACTIONS_LIMIT, { error: `limit must be a whole number from 1 to ${AGENT_TRANSACTIONS_LIMIT}` })
    .optional(),
  cursor: z.string({ error: AGENT_TRANSACTIONS_CURSOR_MESSAGE }).max(200, { error: AGENT_TRANSACTIONS_CURSOR_MESSAGE }).optional(),
});

export const agentTransactionsPage = z.object({
  transactions: z.array(agentTransactionView),
  /** Where the next (older) page starts; null on the last page. */
  next_cursor: z.string().nullable(),
});
export type AgentTransactionsPage = z.infer<typeof agentTransactionsPage>;

export const x402CapabilitiesView = z.object({
  network: z.string(),
  network_v1_name: z.string(),
  schemes: z.array(z.string()),
  asset: z.string(),
  x402_versions: z.array(z.number()),
  endpoints: z.record(z.string(), z.string()),
});

export const agentInfoView = z.object({
  id: z.string(),
  did: z.string(),
  name: z.string(),
  description: z.string(),
  status: z.string(),
  kya_tier: z.string(),
  wallet_addresses: z.object({ base: z.string().nullable(), legacy: z.string().nullable() }),
  spending_rules: spendingRulesView.nullable(),
  /** What the agent has spent against its limits (held or captured payments), and what is left today. */
  spending: z.object({
    spent_last_24h: z.number(),
    spent_last_24h_exact: z.string(),
    remaining_daily: z.number().nullable(),
    remaining_daily_exact: z.string().nullable(),
    spent_this_month: z.number(),
    spent_this_month_exact: z.string(),
  }),
  verifiable_credential: agentCredentialView.nullable(),
  network: networkView,
  x402: x402CapabilitiesView,
});
export type AgentInfoView = z.infer<typeof agentInfoView>;

export const x402RequirementsView = z.object({
  url: z.string(),
  /** False when the upstream answered without asking for payment; `status` says what it answered. */
  payment_required: z.boolean(),
  status: z.number(),
  x402_version: z.number().nullable(),
  accepts: z.array(z.record(z.string(), z.unknown())),
  /** The `exact` USDC requirement on the configured network, the one to sign; null if none. */
  recommended: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
});
export type X402RequirementsView = z.infer<typeof x402RequirementsView>;

export const x402SignedPaymentView = z.object({
  intent_id: z.string(),
  status: z.enum(INTENT_STATUSES),
  /** Send it upstream in `header_name` (or hand it to /x402/proxy). Null until the payment is authorised. */
  xPaymentHeader: z.string().nullable(),
  x_payment_header: z.string().nullable(),
  header_name: z.string(),
  x402_version: z.number(),
  ...money,
  pay_to: z.string(),
  network: z.string(),
  valid_before: z.string().nullable(),
  message: z.string(),
});
export type X402SignedPaymentView = z.infer<typeof x402SignedPaymentView>;

export const x402UpstreamResponseView = z.object({
  status: z.number(),
  headers: z.record(z.string(), z.string()),
  /** UTF-8 text, or base64 when `body_encoding` says so. */
  body: z.string(),
  body_encoding: z.enum(['utf8', 'base64']),
  /** The seller's decoded PAYMENT-RESPONSE / X-PAYMENT-RESPONSE; null when it sent none. */
  payment_response: z.record(z.string(), z.unknown()).nullable(),
  /** The agent's payment behind the header, when one was sent, and the protocol it was paid in. */
  payment: z
    .object({ intent_id: z.string(), status: z.enum(INTENT_STATUSES), transaction_hash: z.string().nullable(), protocol: z.enum(PAYMENT_PROTOCOLS).optional() })
    .nullable(),
  /** An MPP seller's Payment-Receipt, decoded, with whether the chain confirms the transaction it names; null when it sent none. */
  mpp_receipt: mppReceiptView.nullable().optional(),
  /** The seller's signed receipt for this payment, checked; null when it sent none. */
  seller_receipt: sellerReceiptView.nullable().optional(),
  /** Paid through a batch-settlement channel: the voucher this call signed (`payment` is the channel's intent). */
  channel_voucher: z.object({ amount_exact: z.string(), cumulative_exact: z.string(), deposit_exact: z.string() }).nullable().optional(),
});
export type X402UpstreamResponseView = z.infer<typeof x402UpstreamResponseView>;

/** One voucher of a batch-settlement channel: one paid call. */
export const x402ChannelVoucherView = z.object({
  amount_exact: z.string(),
  /** The most the seller may claim after this call (the voucher's maxClaimableAmount). */
  cumulative_exact: z.string(),
  resource: z.string(),
  created_at: z.string(),
});
export type X402ChannelVoucherView = z.infer<typeof x402ChannelVoucherView>;

/** An x402 batch-settlement channel of the agent: one payment intent whose amount is the deposit held. */
export const x402ChannelView = z.object({
  intent_id: z.string(),
  /** The intent's status: `processing` while the channel is open, then `settled` (or `failed` when nothing was claimed). */
  status: z.enum(INTENT_STATUSES),
  /** open: vouchers are signed; closing: the seller was asked to claim and refund; closed: the chain says how it ended. */
  state: z.enum(['opening', 'open', 'closing', 'closed']),
  channel_id: z.string().nullable(),
  pay_to: z.string(),
  network: z.string(),
  resource: z.string().nullable(),
  deposit_exact: z.string(),
  price_exact: z.string(),
  /** What the vouchers signed so far: the most the seller can claim. */
  cumulative_exact: z.string(),
  vouchers_count: z.number(),
  /** Once closed: what the chain says the seller claimed, which the ledger captured. */
  captured_exact: z.string().nullable(),
  created_at: z.string(),
});
export type X402ChannelView = z.infer<typeof x402ChannelView>;

export const x402ChannelsView = z.object({ channels: z.array(x402ChannelView) });
export type X402ChannelsView = z.infer<typeof x402ChannelsView>;

/** GET /x402/channels/{intentId}: one channel with its vouchers, one per paid call, oldest first. */
export const x402ChannelDetailView = x402ChannelView.extend({ vouchers: z.array(x402ChannelVoucherView) });
export type X402ChannelDetailView = z.infer<typeof x402ChannelDetailView>;

/** POST /x402/channels/{intentId}/close: the channel, and what the seller answered to the refund request. */
export const x402ChannelCloseView = x402ChannelView.extend({
  refund: z.object({ requested: z.boolean(), success: z.boolean(), error: z.string().nullable() }),
});
export type X402ChannelCloseView = z.infer<typeof x402ChannelCloseView>;

/**
 * The x402 schemes Purser pays, in the order it prefers them: a fixed price (`exact`) before a
 * maximum (`upto`), and both before a channel (`batch-settlement`). Each is a folder of the
 * server's paid-calls room behind one contract; here for the lookup, metrics labels and /info.
 */
export const PAYABLE_SCHEMES = ['exact', 'upto', 'batch-settlement'] as const;
export type PayableScheme = (typeof PAYABLE_SCHEMES)[number];

export function isPayableScheme(scheme: unknown): scheme is PayableScheme {
  return (PAYABLE_SCHEMES as readonly unknown[]).includes(scheme);
}
