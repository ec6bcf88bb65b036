/**
 * Request and response types of every SDK method, derived from the zod contracts in
 * `@purser/core` that the server validates with and builds its OpenAPI document from. Bodies
 * are the contracts' input types (what a client may send: dollars as numbers or decimal
 * strings, defaults optional); responses are their output types (what the server answers).
 * Type imports only: the SDK's runtime carries no zod.
 */
import type { z } from 'zod';
import type {
  agentBalanceView,
  agentIdentityView,
  agentInfoView,
  agentPaymentInput,
  agentPaymentSessionListView,
  agentPaymentSessionView,
  agentRequestedPaymentSessionView,
  agentPaymentView,
  agentTransactionsInput,
  agentTransactionView,
  agentView,
  attachPolicyInput,
  auditEntryListView,
  auditEntryView,
  auditExportLine,
  auditVerificationView,
  authSessionView,
  budgetAlertListView,
  budgetAlertView,
  budgetThresholdEventView,
  createAgentInput,
  createAgentResult,
  createdOwnerApiKeyView,
  createIntentInput,
  createOwnerApiKeyInput,
  createPolicyInput,
  createWebhookEndpointInput,
  decideIntentInput,
  decidePaymentSessionInput,
  deleteAgentResult,
  deleteWebhookEndpointResult,
  ErrorCode,
  fundAgentInput,
  fundAgentResult,
  intentListView,
  intentProgressView,
  intentView,
  killSwitchView,
  kyaEscalationBody,
  kyaEscalationResult,
  listAuditEntriesInput,
  listBudgetAlertsInput,
  listIntentsInput,
  listKyaVerificationsResult,
  listPaymentSessionsInput,
  listPoliciesInput,
  mppReceiptView,
  oauthConnectionEventView,
  openPaymentSessionInput,
  ownerApiKeyListView,
  ownerApiKeyView,
  ownerTransactionView,
  ownerWalletView,
  pauseAllAgentsResult,
  paymentDetailView,
  PaymentProtocol as CorePaymentProtocol,
  paymentReceiptView,
  paymentSessionEventView,
  paymentSessionListView,
  paymentSessionView,
  policyChanges,
  policyListView,
  policyView,
  requestPaymentSessionInput,
  resumeAllAgentsResult,
  rotateAgentApiKeyResult,
  rotatedWebhookSecretView,
  rotateWebhookSecretBody,
  signInBody,
  signUpBody,
  spendingRulesChanges,
  topUpWalletInput,
  topUpWalletResult,
  updateRequestSigningInput,
  verifyCredentialInput,
  verifyCredentialResult,
  webhookDeliveriesQuery,
  webhookDeliveryDetailView,
  webhookDeliveryListView,
  webhookDeliveryView,
  webhookEndpointChanges,
  webhookEndpointListView,
  webhookEndpointView,
  webhookEndpointWithSecretView,
  webhookEventView,
  x402ChannelCloseView,
  x402ChannelDetailView,
  x402ChannelsView,
  x402FetchInput,
  x402ProxyInput,
  x402RequirementSchema,
  x402RequirementsInput,
  x402RequirementsView,
  x402SignedPaymentView,
  x402SignPaymentInput,
  x402UpstreamResponseView,
} from '@purser/core';

/** The stable error codes of the API (core's ERROR_STATUS table). */
export type PurserErrorCode = ErrorCode;

// ---------------------------------------------------------------- sessions

export type SignUpBody = z.input<typeof signUpBody>;
export type SignInBody = z.input<typeof signInBody>;
export type AuthSession = z.output<typeof authSessionView>;

// ---------------------------------------------------------------- wallet

/** The idempotency key goes in the call's options (or this field); the SDK sends it as the header. */
export type TopUpWalletBody = z.input<typeof topUpWalletInput>;
export type FundAgentBody = z.input<typeof fundAgentInput>;
export type OwnerWallet = z.output<typeof ownerWalletView>;
export type OwnerTransaction = z.output<typeof ownerTransactionView>;
export type TopUpWalletResult = z.output<typeof topUpWalletResult>;
export type FundAgentResult = z.output<typeof fundAgentResult>;

// ---------------------------------------------------------------- agents

export type CreateAgentBody = z.input<typeof createAgentInput>;
export type SpendingRulesChanges = z.input<typeof spendingRulesChanges>;
export type AgentTransactionsQuery = Omit<z.input<typeof agentTransactionsInput>, 'agent_id'>;
export type KyaEscalationBody = z.input<typeof kyaEscalationBody>;
export type Agent = z.output<typeof agentView>;
export type CreateAgentResult = z.output<typeof createAgentResult>;
export type RotateAgentApiKeyResult = z.output<typeof rotateAgentApiKeyResult>;
export type DeleteAgentResult = z.output<typeof deleteAgentResult>;
export type AgentTransaction = z.output<typeof agentTransactionView>;
export type KyaEscalationResult = z.output<typeof kyaEscalationResult>;
export type KyaVerification = z.output<typeof listKyaVerificationsResult>[number];
export type PauseAllAgentsResult = z.output<typeof pauseAllAgentsResult>;
export type ResumeAllAgentsResult = z.output<typeof resumeAllAgentsResult>;
export type KillSwitch = z.output<typeof killSwitchView>;
/** The agent's request-signing keys (public halves only), directory, card and DID document URLs, and signing rule. */
export type AgentIdentity = z.output<typeof agentIdentityView>;
export type UpdateAgentIdentityBody = z.input<typeof updateRequestSigningInput>;

// ---------------------------------------------------------------- budget alerts

export type ListBudgetAlertsQuery = Omit<z.input<typeof listBudgetAlertsInput>, 'limit'> & { limit?: number };
export type BudgetAlert = z.output<typeof budgetAlertView>;
export type BudgetAlertList = z.output<typeof budgetAlertListView>;
/** The body of a `budget.threshold` webhook, for endpoints subscribed to it. */
export type BudgetThresholdEvent = z.output<typeof budgetThresholdEventView>;

// ---------------------------------------------------------------- API keys and credentials

export type CreateApiKeyBody = z.input<typeof createOwnerApiKeyInput>;
export type ApiKey = z.output<typeof ownerApiKeyView>;
export type CreatedApiKey = z.output<typeof createdOwnerApiKeyView>;
export type ApiKeyList = z.output<typeof ownerApiKeyListView>;
export type VerifyCredentialBody = z.input<typeof verifyCredentialInput>;
export type VerifyCredentialResult = z.output<typeof verifyCredentialResult>;

// ---------------------------------------------------------------- policies

export type CreatePolicyBody = z.input<typeof createPolicyInput>;
export type PolicyChanges = z.input<typeof policyChanges>;
export type ListPoliciesQuery = z.input<typeof listPoliciesInput>;
export type Policy = z.output<typeof policyView>;
export type PolicyList = z.output<typeof policyListView>;

// ---------------------------------------------------------------- payment sessions

/** A budget for one agent and one task: `totalUsd`, optional `perPaymentMaxUsd`, `expiresAt` (at most 30 days away), optional `scope` and `reason`. */
export type OpenPaymentSessionBody = z.input<typeof openPaymentSessionInput>;
export type ListPaymentSessionsQuery = z.input<typeof listPaymentSessionsInput>;
/** Grant (`approve: true`, optionally a lower `totalUsd` or a sooner `expiresAt`) or reject (`approve: false`, optionally a `note`). */
export type PaymentSessionDecisionBody = Omit<z.input<typeof decidePaymentSessionInput>, 'sessionId'>;
export type PaymentSession = z.output<typeof paymentSessionView>;
export type PaymentSessionList = z.output<typeof paymentSessionListView>;
/**
 * The body of a `budget.requested`, `budget.granted`, `budget.rejected` or `budget.closed`
 * webhook, for endpoints subscribed to them: the payment session in `data.session`.
 */
export type BudgetEvent = z.output<typeof paymentSessionEventView>;

// ---------------------------------------------------------------- payment intents

export type CreateIntentBody = z.input<typeof createIntentInput>;
/**
 * zod coerces `limit` from the query string; a client sends a number. Several statuses are sent
 * as `status` repeated; amounts are dollars (a number or a decimal string), `from` and `to`
 * ISO 8601 date-times with a zone, `cursor` the previous page's `nextCursor`.
 */
export type ListIntentsQuery = Omit<z.input<typeof listIntentsInput>, 'limit'> & { limit?: number };
export type AttachIntentPolicyBody = Omit<z.input<typeof attachPolicyInput>, 'intentId'>;
export type IntentDecisionBody = Omit<z.input<typeof decideIntentInput>, 'intentId'>;
export type Intent = z.output<typeof intentView>;
export type IntentList = z.output<typeof intentListView>;
export type IntentProgress = z.output<typeof intentProgressView>;
/** One payment in full: agent, rail operation, events, ledger entries, deliveries, audit entries, workflow. */
export type PaymentDetail = z.output<typeof paymentDetailView>;
/** A settled payment's receipt: a JWS signed by the deployment's issuer key, and where its keys are published. */
export type PaymentReceipt = z.output<typeof paymentReceiptView>;

// ---------------------------------------------------------------- webhooks

export type CreateWebhookEndpointBody = z.input<typeof createWebhookEndpointInput>;
export type WebhookEndpointChanges = z.input<typeof webhookEndpointChanges>;
export type RotateWebhookSecretBody = z.input<typeof rotateWebhookSecretBody>;
export type WebhookDeliveriesQuery = Omit<z.input<typeof webhookDeliveriesQuery>, 'limit'> & { limit?: number };
export type WebhookEndpoint = z.output<typeof webhookEndpointView>;
export type WebhookEndpointWithSecret = z.output<typeof webhookEndpointWithSecretView>;
/** A rotation's answer: the new secret, and until when the replaced one still signs (null: it stopped at once). */
export type RotatedWebhookSecret = z.output<typeof rotatedWebhookSecretView>;
export type WebhookEndpointList = z.output<typeof webhookEndpointListView>;
export type DeleteWebhookEndpointResult = z.output<typeof deleteWebhookEndpointResult>;
export type WebhookDelivery = z.output<typeof webhookDeliveryView>;
export type WebhookDeliveryList = z.output<typeof webhookDeliveryListView>;
export type WebhookDeliveryDetail = z.output<typeof webhookDeliveryDetailView>;
/** The body of every payment webhook Purser sends (budget.threshold events are BudgetThresholdEvent, connection.* events ConnectionEvent, budget.requested/granted/rejected/closed BudgetEvent). */
export type WebhookEvent = z.output<typeof webhookEventView>;
/**
 * The body of a `connection.created` or `connection.revoked` webhook, for endpoints subscribed to
 * them: an MCP host or other OAuth client the owner connected to an agent, or whose connection ended.
 */
export type ConnectionEvent = z.output<typeof oauthConnectionEventView>;

// ---------------------------------------------------------------- audit log

export type ListAuditEntriesQuery = Omit<z.input<typeof listAuditEntriesInput>, 'limit'> & { limit?: number };
export type AuditEntry = z.output<typeof auditEntryView>;
export type AuditEntryList = z.output<typeof auditEntryListView>;
export type AuditVerification = z.output<typeof auditVerificationView>;
/** One line of the audit export (JSON Lines, oldest first). */
export type AuditExportLine = z.output<typeof auditExportLine>;

// ---------------------------------------------------------------- agent API

export type AgentPaymentBody = z.input<typeof agentPaymentInput>;
export type AgentBalance = z.output<typeof agentBalanceView>;
export type AgentPayment = z.output<typeof agentPaymentView>;
/** A page of the agent's transactions, newest first; `next_cursor` is where the next one starts (null: the last page). */
export type AgentTransactionList = { transactions: AgentTransaction[]; next_cursor: string | null };
export type AgentInfo = z.output<typeof agentInfoView>;
/** `{ total, per_payment_max?, expires_at, scope?, reason }`: a budget the agent asks its owner for. */
export type RequestBudgetBody = z.input<typeof requestPaymentSessionInput>;
/** One of the agent's budgets (payment sessions), with what it spent, what remains and `message`: what to do next. */
export type AgentBudget = z.output<typeof agentPaymentSessionView>;
/** The answer to the agent's request: the budget, and `approval_url`, the one-time link its owner decides it from. */
export type AgentRequestedBudget = z.output<typeof agentRequestedPaymentSessionView>;
export type AgentBudgetList = z.output<typeof agentPaymentSessionListView>;

export type X402Requirement = z.input<typeof x402RequirementSchema>;
export type X402RequirementsBody = z.input<typeof x402RequirementsInput>;
export type X402Requirements = z.output<typeof x402RequirementsView>;
/**
 * `{ requirement, x402_version?, url?, description?, category? }`. The requirement may be the
 * `recommended` entry of an x402 requirements answer as it is (the server checks it).
 */
export type X402SignPaymentBody = Omit<z.input<(typeof x402SignPaymentInput)['out']>, 'requirement'> & {
  requirement: X402Requirement | Record<string, unknown>;
};
export type X402SignedPayment = z.output<typeof x402SignedPaymentView>;
export type X402ProxyBody = z.input<typeof x402ProxyInput>;
/** The wire protocol a paid call was paid in: `x402`, or `mpp` (the Machine Payments Protocol). */
export type PaymentProtocol = CorePaymentProtocol;
/** An MPP seller's Payment-Receipt, decoded, with whether one read of the chain confirms the transaction it names. */
export type MppReceipt = z.output<typeof mppReceiptView>;
/** The body of POST /pay/fetch (and of /x402/fetch, its first name): the seller's request, the price cap, what the payment is for. */
export type PaidFetchBody = z.input<typeof x402FetchInput>;
/** PaidFetchBody under its first name. */
export type X402FetchBody = PaidFetchBody;
/**
 * The seller's answer to a paid call: status, headers, body, and the payment behind it with the
 * protocol it was paid in (`payment.protocol`, absent from servers older than MPP support: x402)
 * and, for MPP, the seller's receipt (`mpp_receipt`).
 */
export type X402UpstreamResponse = z.output<typeof x402UpstreamResponseView>;
export type X402Channels = z.output<typeof x402ChannelsView>;
export type X402ChannelClose = z.output<typeof x402ChannelCloseView>;
export type X402ChannelDetail = z.output<typeof x402ChannelDetailView>;
/** What /pay/fetch answers: the seller's response, or (202) the payment waiting for the owner. */
export type PaidFetchResult =
  | { kind: 'response'; response: X402UpstreamResponse }
  | { kind: 'pending_approval'; payment: X402SignedPayment };
/** PaidFetchResult under its first name. */
export type X402FetchResult = PaidFetchResult;
