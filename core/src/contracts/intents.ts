/**
 * Contracts of payment intents, the payment engine's surface (owner tRPC and /api/v1/intents,
 * the SDK, the agent API). Field names follow the spec's samples (kyaTier, maxRetries,
 * dailyCap, timeBox): camelCase, unlike the older wallet and agent surfaces whose snake_case
 * the spec fixes. Requests carry dollars; past parsing, amounts are bigints in atomic units.
 * Responses carry dollars as numbers and as full-precision decimal strings (`amountExact`).
 */
import { z } from 'zod';
import { AGENT_STATUSES, KYA_TIER_NAMES } from './agents';
import { requestSignatureView } from './agent-identity';
import { mppPaymentView, PAYMENT_PROTOCOLS } from './payment-protocols';
import { currencySchema, dollarAmountSchema, idempotencyKeySchema } from './wallets';
import { CURRENCIES, parseAmount } from '../money';
import { COUNTRY_CODE_HINTS, COUNTRY_CODES } from '../policy/country-codes';
import { policyRulesSchema } from '../policy/policy-rules';
import { POLICY_RULE_CODES } from '../policy/evaluate-policy';

// ---------------------------------------------------------------- rails

/** Payment rails, as the API names them. */
export const RAIL_NAMES = ['ledger', 'x402-base', 'solana', 'card', 'bank'] as const;
export type RailName = (typeof RAIL_NAMES)[number];
/** Rails that are simulators or test chains here: labelled sandbox wherever they are shown. */
export const SANDBOX_RAILS: readonly RailName[] = ['solana', 'card', 'bank'];
export const RAIL_MESSAGE = `Rail must be one of ${RAIL_NAMES.join(', ')}`;
/** Why the x402-base rail refuses an intent that answers no seller's 402 (any surface but the agent API's /x402 endpoints). */
export const X402_INTENT_REASON =
  "x402 payments are made through the agent API's /x402 endpoints, which answer a seller's 402 response; a payment intent without a seller's requirement cannot use this rail";
export const railSchema = z.enum(RAIL_NAMES, { error: RAIL_MESSAGE });

/** The database spells x402-base as x402_base (an enum identifier); the API never does. */
export function railToDb(rail: RailName): 'ledger' | 'x402_base' | 'solana' | 'card' | 'bank' {
  return rail === 'x402-base' ? 'x402_base' : rail;
}
export function railFromDb(rail: 'ledger' | 'x402_base' | 'solana' | 'card' | 'bank'): RailName {
  return rail === 'x402_base' ? 'x402-base' : rail;
}

// ---------------------------------------------------------------- statuses, steps, events

export const INTENT_STATUSES = [
  'created',
  'pending_approval',
  'approved',
  'processing',
  'settled',
  'rejected',
  'blocked',
  'failed',
  'expired',
  'cancelled',
] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];
/** No money moves and nothing changes after these. */
export const TERMINAL_INTENT_STATUSES: readonly IntentStatus[] = ['settled', 'rejected', 'blocked', 'failed', 'expired', 'cancelled'];

/** The steps of paymentWorkflow, in order, as its query reports them. */
export const PAYMENT_STEPS = [
  'intent.created',
  'policy_gate',
  'approval',
  'intent.approved',
  'rail_selection',
  'reserve',
  'execute',
  'capture',
  'release',
  'settlement.completed',
  'audit',
] as const;
export type PaymentStep = (typeof PAYMENT_STEPS)[number];
export const STEP_STATUSES = ['running', 'completed', 'failed', 'skipped'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** Webhook events (spec section 3); each carries a unique id and the intent. */
export const WEBHOOK_EVENT_TYPES = ['intent.created', 'intent.approved', 'settlement.completed', 'policy.violation'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

// ---------------------------------------------------------------- requests

export const INTENT_AMOUNT_MESSAGE = 'Amount must be a positive number of dollars with at most 6 decimals';
export const INTENT_NOT_FOUND_MESSAGE = 'Payment intent not found';
export const MAX_RETRIES_LIMIT = 10;
const METADATA_MAX_BYTES = 8 * 1024;

const intentIdSchema = z.uuid({ error: 'Intent id must be a UUID' });

function optionalText(field: string, max: number) {
  return z
    .string({ error: `${field} must be text` })
    .trim()
    .min(1, { error: `${field} must not be blank; leave it out instead` })
    .max(max, { error: `${field} must be at most ${max} characters` })
    .optional();
}

/** ISO 3166-1 alpha-2, any case in, upper case out (the policy engine's geofence compares it). */
export const geographySchema = z.string({ error: 'geography must be an ISO 3166-1 alpha-2 country code' }).transform((value, ctx) => {
  const upper = value.trim().toUpperCase();
  if (!COUNTRY_CODES.has(upper)) {
    const hint = COUNTRY_CODE_HINTS[upper];
    ctx.addIssue({
      code: 'custom',
      message: `geography: "${value}" is not an assigned ISO 3166-1 alpha-2 country code${hint ? ` (did you mean ${hint}?)` : ''}`,
    });
    return z.NEVER;
  }
  return upper;
});

export const metadataSchema = z
  .record(z.string(), z.unknown(), { error: 'metadata must be an object of keys and values' })
  .refine((value) => JSON.stringify(value).length <= METADATA_MAX_BYTES, { error: `metadata must be at most ${METADATA_MAX_BYTES} bytes as JSON` });

export const createIntentInput = z.object({
  agentId: z.uuid({ error: 'agentId must be the id of one of your agents' }),
  amount: dollarAmountSchema(INTENT_AMOUNT_MESSAGE),
  currency: currencySchema.default('USDC'),
  purpose: z.string({ error: 'purpose must be text' }).trim().max(500, { error: 'purpose must be at most 500 characters' }).default(''),
  merchant: optionalText('merchant', 200),
  toAddress: optionalText('toAddress', 200),
  category: optionalText('category', 100),
  /** The lowest KYA tier the paying agent must hold. */
  kyaTier: z.enum(KYA_TIER_NAMES, { error: `kyaTier must be one of ${KYA_TIER_NAMES.join(', ')}` }).optional(),
  geography: geographySchema.optional(),
  /** How often a failing rail is retried before the payment fails. */
  maxRetries: z
    .int({ error: `maxRetries must be a whole number from 0 to ${MAX_RETRIES_LIMIT}` })
    .min(0, { error: `maxRetries must be a whole number from 0 to ${MAX_RETRIES_LIMIT}` })
    .max(MAX_RETRIES_LIMIT, { error: `maxRetries must be a whole number from 0 to ${MAX_RETRIES_LIMIT}` })
    .default(3),
  metadata: metadataSchema.default({}),
  rail: railSchema.default('ledger'),
  /** A policy attached to this intent alone, in the same call (see attachPolicyInput). */
  policy: policyRulesSchema.optional(),
  idempotencyKey: idempotencyKeySchema.optional(),
  /** The payment session (issue 43) the payment is charged to: one of the agent's own. */
  paymentSessionId: z.uuid({ error: 'paymentSessionId must be the id of one of the agent\'s payment sessions' }).optional(),
});
export type CreateIntentBody = z.input<typeof createIntentInput>;
export type CreateIntentInput = z.output<typeof createIntentInput>;

export const intentIdInput = z.object({ intentId: intentIdSchema });
export type IntentIdInput = z.output<typeof intentIdInput>;

export const decideIntentInput = z.object({
  intentId: intentIdSchema,
  reason: z.string({ error: 'reason must be text' }).trim().max(500, { error: 'reason must be at most 500 characters' }).optional(),
});
export type DecideIntentInput = z.output<typeof decideIntentInput>;

/** The spec's "policy on an intent": dailyCap, allowedCategories, kyaEscalation, timeBox, ... */
export const attachPolicyInput = z.object({
  intentId: intentIdSchema,
  policy: policyRulesSchema,
  /** Evaluate and report only, never enforce. */
  shadow: z.boolean({ error: 'shadow must be true or false' }).default(false),
});
export type AttachPolicyInput = z.output<typeof attachPolicyInput>;

const STATUS_MESSAGE = `status must be one of ${INTENT_STATUSES.join(', ')}`;
const intentStatusSchema = z.enum(INTENT_STATUSES, { error: STATUS_MESSAGE });
export const INTENT_SEARCH_MAX_LENGTH = 200;
export const INTENT_CURSOR_MESSAGE = 'cursor must be the nextCursor of an earlier page, unchanged';

function dateTimeBound(field: string) {
  return z.iso.datetime({ offset: true, error: `${field} must be an ISO 8601 date-time with a time zone, e.g. 2026-11-26T00:00:00Z` }).optional();
}

/** A dollar bound of a range filter: like an amount, except that 0 is a bound too. */
function dollarBound(field: string) {
  const message = `${field} must be a number of dollars (0 or more) with at most 6 decimals`;
  return z
    .union([z.number(), z.string()], { error: message })
    .transform((value, ctx) => {
      try {
        return parseAmount(value, { allowZero: true });
      } catch {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
    })
    .optional();
}

/**
 * The owner's payment list: newest first, filtered, a page at a time. Every filter narrows;
 * `cursor` continues after the last intent of the previous page whatever the filters are.
 */
export const listIntentsInput = z
  .object({
    agentId: z.uuid({ error: 'agentId must be a UUID' }).optional(),
    /** Payments that named this payment session. */
    sessionId: z.uuid({ error: 'sessionId must be a UUID' }).optional(),
    /** One status, or several (any of them). */
    status: z
      .union([intentStatusSchema, z.array(intentStatusSchema).min(1, { error: STATUS_MESSAGE }).max(INTENT_STATUSES.length, { error: STATUS_MESSAGE })], {
        error: STATUS_MESSAGE,
      })
      .transform((value) => (Array.isArray(value) ? [...new Set(value)] : [value]))
      .optional(),
    rail: railSchema.optional(),
    /** Paid calls (the x402-base rail) paid in this wire protocol; any other payment is left out. */
    protocol: z.enum(PAYMENT_PROTOCOLS, { error: `protocol must be one of ${PAYMENT_PROTOCOLS.join(', ')}` }).optional(),
    /** Created at or after this instant. */
    from: dateTimeBound('from'),
    /** Created before this instant. */
    to: dateTimeBound('to'),
    /** Dollars, inclusive. */
    minAmount: dollarBound('minAmount'),
    /** Dollars, inclusive. */
    maxAmount: dollarBound('maxAmount'),
    /** Case-insensitive text in the purpose, the merchant or the metadata (as JSON text). */
    search: z
      .string({ error: 'search must be text' })
      .trim()
      .max(INTENT_SEARCH_MAX_LENGTH, { error: `search must be at most ${INTENT_SEARCH_MAX_LENGTH} characters` })
      .optional(),
    limit: z.coerce.number().int().min(1, { error: 'limit must be from 1 to 100' }).max(100, { error: 'limit must be from 1 to 100' }).default(50),
    /** `nextCursor` of the previous page (opaque). */
    cursor: z.string({ error: INTENT_CURSOR_MESSAGE }).min(1, { error: INTENT_CURSOR_MESSAGE }).max(200, { error: INTENT_CURSOR_MESSAGE }).optional(),
  })
  .superRefine((input, ctx) => {
    if (input.from !== undefined && input.to !== undefined && Date.parse(input.from) >= Date.parse(input.to)) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'to must be later than from' });
    }
    if (input.minAmount !== undefined && input.maxAmount !== undefined && input.minAmount > input.maxAmount) {
      ctx.addIssue({ code: 'custom', path: ['maxAmount'], message: 'maxAmount must not be less than minAmount' });
    }
  });
export type ListIntentsInput = z.output<typeof listIntentsInput>;

// ---------------------------------------------------------------- responses

export const firedRuleView = z.object({
  rule: z.string(),
  outcome: z.enum(['deny', 'require_approval']),
  code: z.enum(POLICY_RULE_CODES),
  message: z.string(),
  policyId: z.string().optional(),
  shadow: z.boolean(),
});
export type FiredRuleView = z.infer<typeof firedRuleView>;

export const policyDecisionView = z.object({
  decision: z.enum(['allow', 'require_approval', 'deny']),
  fired: z.array(firedRuleView),
  /** What each shadow policy would have decided, had it been enforced. */
  shadow: z.array(z.object({ policyId: z.string(), name: z.string(), version: z.number(), decision: z.enum(['allow', 'require_approval', 'deny']) })),
  evaluatedAt: z.string(),
});
export type PolicyDecisionView = z.infer<typeof policyDecisionView>;

export const approvalView = z.object({
  status: z.enum(['pending', 'approved', 'rejected', 'expired']),
  reason: z.string().nullable(),
  decidedAt: z.string().nullable(),
  expiresAt: z.string(),
});

export const intentView = z.object({
  id: z.string(),
  ownerId: z.string(),
  agentId: z.string(),
  createdBy: z.enum(['owner', 'agent']),
  amount: z.number(),
  amountExact: z.string(),
  currency: z.enum(CURRENCIES),
  purpose: z.string(),
  merchant: z.string().nullable(),
  toAddress: z.string().nullable(),
  category: z.string().nullable(),
  kyaTier: z.enum(KYA_TIER_NAMES).nullable(),
  geography: z.string().nullable(),
  maxRetries: z.number(),
  metadata: z.record(z.string(), z.unknown()),
  /** The payment session the agent named for this payment, if any. */
  paymentSessionId: z.string().nullable(),
  rail: railSchema,
  /** A paid call (the x402-base rail): the wire protocol it is paid in, x402 or MPP; null for every other payment. */
  protocol: z.enum(PAYMENT_PROTOCOLS).nullable(),
  /** True on simulated rails and test chains: no real money moves there. */
  sandbox: z.boolean(),
  status: z.enum(INTENT_STATUSES),
  failureCode: z.string().nullable(),
  failureMessage: z.string().nullable(),
  policyDecision: policyDecisionView.nullable(),
  approval: approvalView.nullable(),
  workflowId: z.string(),
  idempotencyKey: z.string(),
  expiresAt: z.string().nullable(),
  reservedAt: z.string().nullable(),
  settledAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type IntentView = z.infer<typeof intentView>;

export const intentListView = z.object({
  intents: z.array(intentView),
  /** Pass as `cursor` for the next page; null on the last. */
  nextCursor: z.string().nullable(),
});
export type IntentListView = z.infer<typeof intentListView>;

export const paymentStepView = z.object({
  step: z.enum(PAYMENT_STEPS),
  status: z.enum(STEP_STATUSES),
  at: z.string(),
  detail: z.string().optional(),
});
export type PaymentStepView = z.infer<typeof paymentStepView>;

/** What paymentWorkflow's query answers: the live flow the web app draws. */
export const intentProgressView = z.object({
  intentId: z.string(),
  status: z.enum(INTENT_STATUSES),
  currentStep: z.enum(PAYMENT_STEPS).nullable(),
  steps: z.array(paymentStepView),
});
export type IntentProgressView = z.infer<typeof intentProgressView>;

/** The body of every webhook: `data.intent` is the intent as it was when the event happened. */
export const webhookEventView = z.object({
  id: z.string(),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  createdAt: z.string(),
  data: z.object({ intent: intentView }),
});
export type WebhookEventView = z.infer<typeof webhookEventView>;

/** How many of the owner's intents wait for their approval (the console's inbox badge). */
export const pendingIntentCountView = z.object({ count: z.number().int().min(0) });
export type PendingIntentCountView = z.infer<typeof pendingIntentCountView>;

// ---------------------------------------------------------------- one payment, in full

/** A rail operation's states: submitted and not final yet, settled, or refused by the rail. */
export const RAIL_OPERATION_STATUSES = ['pending', 'settled', 'declined'] as const;
/** Ledger accounts: an owner's wallet, an agent's balance, an agent's held funds, the world outside. */
export const LEDGER_ACCOUNT_KINDS = ['owner', 'agent', 'hold', 'external'] as const;
/** As WEBHOOK_DELIVERY_STATUSES (contracts/webhooks.ts, which imports this module). */
const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

/**
 * The authorisation an x402 payment signed, decoded from what was stored at signing: payer,
 * payee, value in dollars and its validity window. Never the signature. `exact` signs an
 * EIP-3009 transfer of exactly `value`; `upto` a Permit2 transfer of at most `value`, of which
 * the seller settled what was used (the payment's amount).
 */
export const paymentAuthorizationView = z.object({
  scheme: z.enum(['exact', 'upto']),
  from: z.string(),
  to: z.string(),
  /** Decimal dollars, full precision: the price (`exact`) or the most that may move (`upto`). */
  value: z.string(),
  validAfter: z.string(),
  validBefore: z.string(),
  nonce: z.string(),
});
export type PaymentAuthorizationView = z.infer<typeof paymentAuthorizationView>;

/**
 * A seller's signed receipt for a paid resource (x402's offer-receipt extension), as Purser
 * checked it against the payment: `verified` only when its signature holds and it names this
 * agent, network, resource and settlement, recently, signed by whoever signed the seller's offer.
 */
export const sellerReceiptView = z.object({
  format: z.enum(['jws', 'eip712']),
  verified: z.boolean(),
  /** Why it is not verified; empty when it is. */
  problems: z.array(z.string()),
  /** Who signed it: an address (EIP-712) or a key id (JWS). */
  signer: z.string().nullable(),
  /** What it says, whether or not it holds. */
  claims: z.record(z.string(), z.unknown()).nullable(),
  /** The receipt as the seller sent it. */
  receipt: z.record(z.string(), z.unknown()),
});
export type SellerReceiptView = z.infer<typeof sellerReceiptView>;

export const paymentRailView = z.object({
  rail: railSchema,
  /** x402 on Base: the wire protocol the paid call was paid in; null on other rails. */
  protocol: z.enum(PAYMENT_PROTOCOLS).nullable(),
  /** The rail's own reference: authorisation nonce, transfer id, transaction signature. */
  reference: z.string(),
  status: z.enum(RAIL_OPERATION_STATUSES),
  sandbox: z.boolean(),
  declineCode: z.string().nullable(),
  declineMessage: z.string().nullable(),
  settledAt: z.string().nullable(),
  /** x402 on Base: the transaction that redeemed the authorisation, once it did. */
  transactionHash: z.string().nullable(),
  /** That transaction on the network's block explorer; null when the network has none (the sandbox chain). */
  explorerUrl: z.string().nullable(),
  authorization: paymentAuthorizationView.nullable(),
  /** x402: the seller's signed receipt, as Purser checked it; null when it sent none. */
  sellerReceipt: sellerReceiptView.nullable(),
  /** x402: the HTTP message signature the paid request carried (Web Bot Auth / Visa TAP); null when it was sent unsigned. */
  requestSignature: requestSignatureView.nullable(),
  /** Paid over MPP: the seller's challenge, the credential sent (decoded) and the seller's receipt; null for any other payment. */
  mpp: mppPaymentView.nullable(),
});
export type PaymentRailView = z.infer<typeof paymentRailView>;

/** Everything the console shows beside one payment's live flow. */
export const paymentDetailView = z.object({
  intent: intentView,
  agent: z.object({ id: z.string(), name: z.string(), did: z.string(), status: z.enum(AGENT_STATUSES) }),
  /** Null until the payment reaches its rail. */
  rail: paymentRailView.nullable(),
  events: z.array(z.object({ id: z.string(), type: z.string(), createdAt: z.string() })),
  /** The entries of the intent's ledger transactions (hold, capture, release), oldest first. */
  ledgerEntries: z.array(
    z.object({
      transactionId: z.string(),
      /** The ledger transaction's type, e.g. payment_hold, payment_capture, payment_release. */
      type: z.string(),
      account: z.enum(LEDGER_ACCOUNT_KINDS),
      /** Signed decimal dollars: positive credits the account, negative debits it. */
      amount: z.string(),
      currency: z.enum(CURRENCIES),
      createdAt: z.string(),
    }),
  ),
  webhookDeliveries: z.array(
    z.object({
      id: z.string(),
      endpointId: z.string(),
      endpointUrl: z.string(),
      eventType: z.string(),
      status: z.enum(DELIVERY_STATUSES),
      attempts: z.number(),
      lastStatusCode: z.number().nullable(),
      createdAt: z.string(),
      deliveredAt: z.string().nullable(),
    }),
  ),
  /**
   * An x402 batch-settlement channel: one voucher per paid call, oldest first (empty for other
   * payments). `amount` is the call's price and `cumulative` the most the seller could claim
   * after it, in decimal dollars; the capture is what the chain says the seller claimed.
   */
  vouchers: z.array(z.object({ amount: z.string(), cumulative: z.string(), resource: z.string(), createdAt: z.string() })),
  /** The owner's audit entries about this intent, oldest first; seq and chainSeq as decimal strings. */
  auditEntries: z.array(
    z.object({
      seq: z.string(),
      chainSeq: z.string(),
      at: z.string(),
      actor: z.string(),
      action: z.string(),
      data: z.record(z.string(), z.unknown()),
    }),
  ),
  workflow: z.object({
    workflowId: z.string(),
    /** The workflow in the Temporal Web UI, when this deployment knows where that is. */
    temporalUiUrl: z.string().nullable(),
  }),
});
export type PaymentDetailView = z.infer<typeof paymentDetailView>;

// ---------------------------------------------------------------- receipts

/**
 * The JOSE `typ` of a payment receipt (explicit typing, RFC 8725 section 3.11): a verifier that
 * checks it cannot take a receipt for an agent credential or the other way round.
 */
export const PAYMENT_RECEIPT_TYP = 'purser-receipt+jwt';
export const PAYMENT_NOT_SETTLED_MESSAGE = 'The payment has not settled; it has no receipt yet';

/**
 * What a receipt states: the JWT claims Purser signs for one settled payment. Registered claims
 * say who (iss: the deployment, sub: the paying agent's DID), which (jti: the intent id) and when
 * (iat: the settlement, so the same payment always yields the same receipt); `receipt` holds the
 * settled facts, amounts as exact decimal strings and atomic units (6 decimals).
 */
export const paymentReceiptClaims = z.object({
  iss: z.string(),
  sub: z.string(),
  jti: z.string(),
  iat: z.number().int(),
  receipt: z.object({
    intent_id: z.string(),
    /** Decimal dollars, full precision, e.g. "2.5". */
    amount: z.string(),
    /** The same amount in atomic units (1 USDC = 1000000), as a decimal integer string. */
    amount_atomic: z.string().regex(/^\d+$/),
    currency: z.enum(CURRENCIES),
    rail: railSchema,
    /** True on simulators and test chains: no real money moved. */
    sandbox: z.boolean(),
    to_address: z.string().nullable(),
    merchant: z.string().nullable(),
    /** The on-chain transaction hash (x402 on Base), otherwise the rail's own reference; null when the rail recorded none. */
    settlement_reference: z.string().nullable(),
    settled_at: z.string(),
    /** x402 payments: what was paid for, as the seller's requirement named it. */
    x402: z
      .object({
        resource_url: z.string().optional(),
        scheme: z.string().optional(),
        /** CAIP-2 (e.g. eip155:84532) or the x402 v1 network name. */
        network: z.string().optional(),
      })
      .optional(),
  }),
});
export type PaymentReceiptClaims = z.infer<typeof paymentReceiptClaims>;

/**
 * A payment's receipt as the owner API, the agent API and the console answer it: the compact JWS
 * and where its key is published: `jwks_url` is the issuer's JSON Web Key Set
 * (/.well-known/jwks.json, what JOSE libraries fetch, e.g. jose's createRemoteJWKSet), and
 * `issuer_metadata_url` the SD-JWT VC issuer metadata (/.well-known/jwt-vc-issuer) holding the same keys.
 */
export const paymentReceiptView = z.object({
  /** Compact JWS: header { alg: EdDSA, typ: purser-receipt+jwt, kid }, payload paymentReceiptClaims. */
  receipt: z.string(),
  issuer: z.string(),
  kid: z.string(),
  jwks_url: z.string(),
  issuer_metadata_url: z.string(),
});
export type PaymentReceiptView = z.infer<typeof paymentReceiptView>;
