/**
 * Contracts of payment intents, the payment engine's surface (owner tRPC and /api/v1/intents,
 * the SDK, the agent API). Field names follow the spec's samples (kyaTier, maxRetries,
 * dailyCap, timeBox): camelCase, unlike the older wallet and agent surfaces whose snake_case
 * the spec fixes. Requests carry dollars; past parsing, amounts are bigints in atomic units.
 * Responses carry dollars as numbers and as full-precision decimal strings (`amountExact`).
 */
import { z } from 'zod';
import { KYA_TIER_NAMES } from './agents';
import { currencySchema, dollarAmountSchema, idempotencyKeySchema } from './wallets';
import { CURRENCIES } from '../money';
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

export const listIntentsInput = z.object({
  agentId: z.uuid({ error: 'agentId must be a UUID' }).optional(),
  status: z.enum(INTENT_STATUSES, { error: `status must be one of ${INTENT_STATUSES.join(', ')}` }).optional(),
  limit: z.coerce.number().int().min(1, { error: 'limit must be from 1 to 100' }).max(100, { error: 'limit must be from 1 to 100' }).default(50),
  /** The id of the last intent of the previous page. */
  cursor: z.uuid({ error: 'cursor must be an intent id' }).optional(),
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
  rail: railSchema,
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
