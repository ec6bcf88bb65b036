/**
 * Contracts of owner policies: policy documents (core/src/policy) an owner sets on all of their
 * agents or on one, enforced or in shadow mode (evaluated and reported, never enforced).
 * camelCase, like the intent contracts whose `policy` field takes the same documents.
 *
 * A policy is versioned by name: changing its rules or its shadow flag writes a new version
 * with a new id and marks the old one superseded; switching it on or off flips the current
 * version. Superseded versions and deleted policies are kept, for the audit trail.
 */
import { z } from 'zod';
import { policyRulesDocumentView } from '../policy/policy-document';
import { policyRulesSchema } from '../policy/policy-rules';
import { INTENT_CURSOR_MESSAGE } from './intents';

export const POLICY_NAME_MAX_LENGTH = 100;
export const POLICY_NAME_MESSAGE = 'Please enter a policy name';
export const POLICY_NOT_FOUND_MESSAGE = 'Policy not found';
/** Names the payment engine gives policies attached to one intent (`intent:<intent id>`). */
export const RESERVED_POLICY_NAME_PREFIX = 'intent:';

const policyIdSchema = z.uuid({ error: 'policyId must be a UUID' });

const policyName = z
  .string({ error: POLICY_NAME_MESSAGE })
  .trim()
  .min(1, { error: POLICY_NAME_MESSAGE })
  .max(POLICY_NAME_MAX_LENGTH, { error: `Policy name must be at most ${POLICY_NAME_MAX_LENGTH} characters` })
  .refine((name) => !name.toLowerCase().startsWith(RESERVED_POLICY_NAME_PREFIX), {
    error: `Policy names starting with "${RESERVED_POLICY_NAME_PREFIX}" are reserved for policies attached to a payment intent`,
  });

const shadowSchema = z.boolean({ error: 'shadow must be true or false' });
const enabledSchema = z.boolean({ error: 'enabled must be true or false' });

export const createPolicyInput = z.object({
  name: policyName,
  /** One of the owner's agents; left out, the policy applies to every agent of the owner. */
  agentId: z.uuid({ error: 'agentId must be the id of one of your agents' }).optional(),
  rules: policyRulesSchema,
  /** Evaluate and report only, never enforce: how to try a policy before switching it on. */
  shadow: shadowSchema.default(false),
  enabled: enabledSchema.default(true),
});
export type CreatePolicyBody = z.input<typeof createPolicyInput>;
export type CreatePolicyInput = z.output<typeof createPolicyInput>;

const policyChangeFields = {
  /** New rules: a new version. */
  rules: policyRulesSchema.optional(),
  /** Into or out of shadow mode: a new version. */
  shadow: shadowSchema.optional(),
  /** Switch the current version on or off. */
  enabled: enabledSchema.optional(),
};

const namesOneChange = [
  (input: { rules?: unknown; shadow?: unknown; enabled?: unknown }) => input.rules !== undefined || input.shadow !== undefined || input.enabled !== undefined,
  { error: 'Give at least one of rules, shadow or enabled to change' },
] as const;

/** The changes of a policy (REST takes the policy id from the path). */
export const policyChanges = z.object(policyChangeFields).refine(...namesOneChange);
export type PolicyChangesBody = z.input<typeof policyChanges>;

/** `policyId` is the current version's id; a superseded version cannot be changed. */
export const updatePolicyInput = z.object({ policyId: policyIdSchema, ...policyChangeFields }).refine(...namesOneChange);
export type UpdatePolicyBody = z.input<typeof updatePolicyInput>;
export type UpdatePolicyInput = z.output<typeof updatePolicyInput>;

export const policyIdInput = z.object({ policyId: policyIdSchema });
export type PolicyIdInput = z.output<typeof policyIdInput>;

export const listPoliciesInput = z.object({
  /** Only the policies that apply to this agent: the owner-wide ones and the agent's own. */
  agentId: z.uuid({ error: 'agentId must be the id of one of your agents' }).optional(),
  /** Also list superseded versions and deleted policies. */
  includeSuperseded: z.boolean({ error: 'includeSuperseded must be true or false' }).default(false),
});
export type ListPoliciesInput = z.output<typeof listPoliciesInput>;

const WOULD_HAVE_BLOCKED_LIMIT_MESSAGE = 'limit must be a whole number from 1 to 100';

/**
 * The payments a shadow policy would have refused had it been enforced, newest first, a page
 * at a time; every version of the policy counts (a change writes a new version with a new id).
 * REST passes limit and cursor in the query string, so limit is coerced.
 */
export const wouldHaveBlockedInput = z.object({
  policyId: policyIdSchema,
  limit: z.coerce
    .number({ error: WOULD_HAVE_BLOCKED_LIMIT_MESSAGE })
    .int({ error: WOULD_HAVE_BLOCKED_LIMIT_MESSAGE })
    .min(1, { error: WOULD_HAVE_BLOCKED_LIMIT_MESSAGE })
    .max(100, { error: WOULD_HAVE_BLOCKED_LIMIT_MESSAGE })
    .default(50),
  /** `nextCursor` of the previous page, as intents.list writes it. */
  cursor: z.string({ error: INTENT_CURSOR_MESSAGE }).min(1, { error: INTENT_CURSOR_MESSAGE }).max(200, { error: INTENT_CURSOR_MESSAGE }).optional(),
});
export type WouldHaveBlockedInput = z.output<typeof wouldHaveBlockedInput>;

// ---------------------------------------------------------------- responses

export const policyView = z.object({
  id: z.string(),
  ownerId: z.string(),
  /** Null: every agent of the owner. */
  agentId: z.string().nullable(),
  /** Set on a policy attached to one payment intent. */
  paymentIntentId: z.string().nullable(),
  name: z.string(),
  version: z.number(),
  /** The document: amounts as decimal dollar strings, as policyRulesSchema reads them. */
  rules: policyRulesDocumentView,
  shadow: z.boolean(),
  enabled: z.boolean(),
  createdAt: z.string(),
  /** Set once a newer version replaced this one, or the policy was deleted. */
  supersededAt: z.string().nullable(),
});
export type PolicyView = z.infer<typeof policyView>;

export const policyListView = z.array(policyView);
