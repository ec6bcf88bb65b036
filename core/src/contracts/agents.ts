/**
 * Contracts of agents: create, spending rules, the agent reads of the dashboard, connect and
 * transactions pages (spec sections 3, 5, 7), API keys and credential verification.
 * Requests carry dollars (a number or a decimal string); past parsing, limits are bigints in
 * atomic units. Responses carry dollars as numbers (the spec's shape) and as full-precision
 * decimal strings (`*_exact`), like the wallet contracts.
 */
import { z } from 'zod';
import { AppError } from '../errors';
import { CURRENCIES, parseAmount } from '../money';

/** Spec section 5 and 8: the toast for a blank agent name. */
export const AGENT_NAME_MESSAGE = 'Please enter an agent name';
export const AGENT_NAME_MAX_LENGTH = 100;
export const AGENT_DESCRIPTION_MAX_LENGTH = 1000;
/** Spec section 9, in dollars. */
export const DEFAULT_MAX_TRANSACTION_AMOUNT = 100;
export const DEFAULT_MAX_DAILY_LIMIT = 1000;
export const AGENT_NOT_FOUND_MESSAGE = 'Agent not found';

export const AGENT_STATUSES = ['active', 'suspended', 'deleted'] as const;
export type AgentStatusName = (typeof AGENT_STATUSES)[number];
/** Know-Your-Agent tiers, lowest first. */
export const KYA_TIER_NAMES = ['pseudonymous', 'basic', 'moderate', 'high'] as const;

/**
 * A spending limit in dollars: 0 or more, at most 6 decimals (parseAmount with allowZero).
 * parseAmount's messages name the field: "Max daily limit must not be negative".
 */
export function spendingLimitSchema(label: string) {
  return z.union([z.number(), z.string()], { error: `${label} must be a number of dollars` }).transform((value, ctx) => {
    try {
      return parseAmount(value, { allowZero: true });
    } catch (error) {
      const message = error instanceof AppError ? error.message.replace(/^Amount/, label) : `${label} is not a valid amount`;
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
  });
}

const maxTransactionAmount = spendingLimitSchema('Max transaction amount');
const maxDailyLimit = spendingLimitSchema('Max daily limit');

export const agentIdSchema = z.uuid({ error: 'Agent id must be a UUID' });

export const createAgentInput = z.object({
  name: z
    .string({ error: AGENT_NAME_MESSAGE })
    .trim()
    .min(1, { error: AGENT_NAME_MESSAGE })
    .max(AGENT_NAME_MAX_LENGTH, { error: `Agent name must be at most ${AGENT_NAME_MAX_LENGTH} characters` }),
  description: z
    .string()
    .trim()
    .max(AGENT_DESCRIPTION_MAX_LENGTH, { error: `Description must be at most ${AGENT_DESCRIPTION_MAX_LENGTH} characters` })
    .default(''),
  max_transaction_amount: maxTransactionAmount.prefault(DEFAULT_MAX_TRANSACTION_AMOUNT),
  max_daily_limit: maxDailyLimit.prefault(DEFAULT_MAX_DAILY_LIMIT),
});
/** What a client sends: `{ name, description?, max_transaction_amount?: 100, max_daily_limit?: 1000 }`. */
export type CreateAgentBody = z.input<typeof createAgentInput>;
/** After parsing: limits in atomic units. */
export type CreateAgentInput = z.output<typeof createAgentInput>;

export const agentIdInput = z.object({ agent_id: agentIdSchema });
export type AgentIdInput = z.output<typeof agentIdInput>;

/** The transactions page reads every transaction (no limit); the MCP endpoint the latest 50. */
export const agentTransactionsInput = z.object({
  agent_id: agentIdSchema,
  limit: z.int().min(1).max(1000).optional(),
});
export type AgentTransactionsInput = z.output<typeof agentTransactionsInput>;

const spendingRulesFields = {
  max_transaction_amount: maxTransactionAmount.optional(),
  max_daily_limit: maxDailyLimit.optional(),
  /** Payments above this wait for the owner's approval; null means never. */
  approval_threshold: spendingLimitSchema('Approval threshold').nullable().optional(),
};

const namesOneLimit = [
  (input: { max_transaction_amount?: unknown; max_daily_limit?: unknown; approval_threshold?: unknown }) =>
    input.max_transaction_amount !== undefined || input.max_daily_limit !== undefined || input.approval_threshold !== undefined,
  { error: 'Give at least one spending limit to change' },
] as const;

/** The limits a change names, at least one (REST takes the agent id from the path). */
export const spendingRulesChanges = z.object(spendingRulesFields).refine(...namesOneLimit);

/** Changes only the limits it names; at least one. */
export const updateSpendingRulesInput = z.object({ agent_id: agentIdSchema, ...spendingRulesFields }).refine(...namesOneLimit);
export type UpdateSpendingRulesBody = z.input<typeof updateSpendingRulesInput>;
export type UpdateSpendingRulesInput = z.output<typeof updateSpendingRulesInput>;

// ---------------------------------------------------------------- responses

export const agentWalletView = z.object({
  id: z.string(),
  wallet_address: z.string(),
  evm_wallet_address: z.string().nullable(),
  blockchain_network: z.string(),
  balance_usdc: z.number(),
  balance_usdt: z.number(),
  balance_usdc_exact: z.string(),
  balance_usdt_exact: z.string(),
});
export type AgentWalletView = z.infer<typeof agentWalletView>;

export const spendingRulesView = z.object({
  max_transaction_amount: z.number(),
  max_daily_limit: z.number(),
  max_transaction_amount_exact: z.string(),
  max_daily_limit_exact: z.string(),
  approval_threshold: z.number().nullable(),
  approval_threshold_exact: z.string().nullable(),
});
export type SpendingRulesView = z.infer<typeof spendingRulesView>;

/** The JSON view of an agent's SD-JWT VC, stored on the agent (Agent.verifiableCredential). */
export const agentCredentialView = z.object({
  format: z.literal('dc+sd-jwt'),
  /** The compact SD-JWT VC with every disclosure (issuer-signed JWT~disclosure~...~). */
  credential: z.string(),
  /** The claims with every disclosure applied. */
  claims: z.record(z.string(), z.unknown()),
  issued_at: z.string(),
  expires_at: z.string(),
});
export type AgentCredentialView = z.infer<typeof agentCredentialView>;

/** An agent with its wallet and spending rules, as the dashboard and connect page read it. */
export const agentView = z.object({
  id: z.string(),
  owner_id: z.string(),
  name: z.string(),
  description: z.string(),
  did: z.string(),
  status: z.enum(AGENT_STATUSES),
  kya_tier: z.enum(KYA_TIER_NAMES),
  verifiable_credential: agentCredentialView.nullable(),
  created_at: z.string(),
  agent_wallets: agentWalletView.nullable(),
  spending_rules: spendingRulesView.nullable(),
});
export type AgentView = z.infer<typeof agentView>;

/** A new agent API key: `key` is shown this once and never stored. */
export const createdAgentApiKeyView = z.object({
  id: z.string(),
  key: z.string(),
  prefix: z.string(),
  created_at: z.string(),
});
export type CreatedAgentApiKeyView = z.infer<typeof createdAgentApiKeyView>;

export const createAgentResult = z.object({ agent: agentView, api_key: createdAgentApiKeyView });
export type CreateAgentResult = z.infer<typeof createAgentResult>;

export const rotateAgentApiKeyResult = z.object({ api_key: createdAgentApiKeyView });
export type RotateAgentApiKeyResult = z.infer<typeof rotateAgentApiKeyResult>;

export const deleteAgentResult = z.object({ id: z.string(), did: z.string(), status: z.literal('deleted') });
export type DeleteAgentResult = z.infer<typeof deleteAgentResult>;

export const agentTransactionView = z.object({
  id: z.string(),
  agent_id: z.string(),
  type: z.string(),
  amount: z.number(),
  amount_exact: z.string(),
  currency: z.enum(CURRENCIES),
  status: z.enum(['pending', 'completed', 'failed']),
  category: z.string().nullable(),
  to_address: z.string().nullable(),
  description: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type AgentTransactionView = z.infer<typeof agentTransactionView>;

// ---------------------------------------------------------------- credential verification

export const verifyCredentialInput = z.object({
  credential: z
    .string({ error: 'Give the credential as a compact SD-JWT' })
    .trim()
    .min(1, { error: 'Give the credential as a compact SD-JWT' })
    .max(65_536, { error: 'Credential is too large' }),
});
export type VerifyCredentialInput = z.output<typeof verifyCredentialInput>;

export const verifyCredentialResult = z.object({
  /** Signature, expiry and status all check out. */
  valid: z.boolean(),
  /** The status list marks the credential invalid (agent suspended or deleted, or superseded). */
  revoked: z.boolean(),
  /** The disclosed claims when the issuer's signature verified, else null. */
  claims: z.record(z.string(), z.unknown()).nullable(),
  errors: z.array(z.string()),
});
export type VerifyCredentialResult = z.infer<typeof verifyCredentialResult>;

/** Verifies the credential the platform holds for one of the owner's agents (the console's Verify action). */
export const verifyAgentCredentialInput = z.object({ agentId: agentIdSchema });
export type VerifyAgentCredentialInput = z.output<typeof verifyAgentCredentialInput>;

// ---------------------------------------------------------------- published identity documents

/** The platform issuer's public key as it is published: an Ed25519 JWK with its thumbprint as `kid`. */
export const publicJwkView = z.object({ kty: z.string(), crv: z.string(), x: z.string(), kid: z.string(), alg: z.string(), use: z.string() });

/** GET /.well-known/jwt-vc-issuer: SD-JWT VC issuer metadata, the keys agent credentials are signed with. */
export const issuerMetadataView = z.object({ issuer: z.string(), jwks: z.object({ keys: z.array(publicJwkView) }) });
export type IssuerMetadataView = z.infer<typeof issuerMetadataView>;
/** The platform issuer's public keys as a JSON Web Key Set (RFC 7517), at /.well-known/jwks.json. */
export const jwksView = issuerMetadataView.shape.jwks;

/** A DID document (W3C DID Core): the platform's did:web or an agent's did:agnic. */
export const didDocumentView = z.looseObject({
  '@context': z.array(z.string()),
  id: z.string(),
  alsoKnownAs: z.array(z.string()).optional(),
  verificationMethod: z.array(z.record(z.string(), z.unknown())).optional(),
  authentication: z.array(z.string()).optional(),
  assertionMethod: z.array(z.string()).optional(),
  service: z.array(z.record(z.string(), z.unknown())).optional(),
});

/** GET /1.0/identifiers/{did}: a DID resolution result (W3C DID Resolution), failures included. */
export const didResolutionView = z.object({
  '@context': z.string(),
  didDocument: didDocumentView.nullable(),
  didResolutionMetadata: z.record(z.string(), z.unknown()),
  didDocumentMetadata: z.record(z.string(), z.unknown()),
});

/** SD-JWT VC type metadata of the agent credential's `vct`: its name and how wallets show its claims. */
export const credentialTypeMetadataView = z.object({
  vct: z.string(),
  name: z.string(),
  description: z.string(),
  display: z.array(z.object({ locale: z.string(), name: z.string(), description: z.string() })),
  claims: z.array(
    z.object({
      path: z.array(z.string()),
      display: z.array(z.object({ locale: z.string(), label: z.string() })),
      sd: z.enum(['always', 'allowed', 'never']).optional(),
    }),
  ),
});
export type CredentialTypeMetadataView = z.input<typeof credentialTypeMetadataView>;

// ---------------------------------------------------------------- kill switch

/** "Pause all agents": how many active agents it suspended now (0 when none was active). */
export const pauseAllAgentsResult = z.object({ paused: z.int().min(0) });
export type PauseAllAgentsResult = z.infer<typeof pauseAllAgentsResult>;

/** "Resume": how many of the agents the kill switch paused are active again. */
export const resumeAllAgentsResult = z.object({ resumed: z.int().min(0) });
export type ResumeAllAgentsResult = z.infer<typeof resumeAllAgentsResult>;

/**
 * The kill switch as the top bar shows it: on while any agent it paused is still suspended.
 * `pausedAt` is when it was last pulled (the newest pause among those agents).
 */
export const killSwitchView = z.object({
  paused: z.boolean(),
  pausedCount: z.int().min(0),
  pausedAt: z.string().nullable(),
});
export type KillSwitchView = z.infer<typeof killSwitchView>;

// ---------------------------------------------------------------- spend history

export const SPEND_HISTORY_MAX_DAYS = 90;
export const SPEND_HISTORY_DEFAULT_DAYS = 30;
const SPEND_HISTORY_DAYS_MESSAGE = `days must be a whole number from 1 to ${SPEND_HISTORY_MAX_DAYS}`;

export const spendHistoryInput = z.object({
  agentId: agentIdSchema,
  days: z
    .int({ error: SPEND_HISTORY_DAYS_MESSAGE })
    .min(1, { error: SPEND_HISTORY_DAYS_MESSAGE })
    .max(SPEND_HISTORY_MAX_DAYS, { error: SPEND_HISTORY_DAYS_MESSAGE })
    .default(SPEND_HISTORY_DEFAULT_DAYS),
});
export type SpendHistoryInput = z.output<typeof spendHistoryInput>;

/**
 * An agent's spend per UTC day, oldest first, today last, days without spend included:
 * payments held or settled (released ones do not count), as the daily limit counts them.
 * `dailyLimit` is the agent's spending rules' limit now (the chart's limit line). `sessionSpent`
 * is the part of a day's spend paid from payment sessions (payments that named one).
 */
export const spendHistoryView = z.object({
  currency: z.literal('USDC'),
  dailyLimit: z.number(),
  dailyLimitExact: z.string(),
  days: z.array(z.object({ date: z.string(), spent: z.number(), spentExact: z.string(), sessionSpent: z.number(), sessionSpentExact: z.string() })),
});
export type SpendHistoryView = z.infer<typeof spendHistoryView>;
