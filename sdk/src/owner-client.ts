/**
 * The owner API (`/api/v1`): wallet, agents (and the kill switch), API keys, credentials, budget
 * alerts, policies, payment sessions, payment intents, webhooks and the audit log, one method per operation of the
 * OpenAPI document. Authenticated with the owner's bearer token: a session access token or an
 * owner API key (`psk_...`). Every method answers an ApiPromise: await it for the data, or call
 * `.withResponse()` for the answer's metadata too; the cursor-paged lists (intents, audit
 * entries, webhook deliveries) answer a PagePromise, which `for await` walks item by item.
 */
import { OPERATIONS as op } from './operations';
import { Transport, type ConnectionOptions, type MoneyRequestOptions, type RequestOptions } from './transport';
import type {
  Agent,
  AgentIdentity,
  AgentTransaction,
  AgentTransactionsQuery,
  ApiKey,
  ApiKeyList,
  AttachIntentPolicyBody,
  AuditEntry,
  AuditEntryList,
  AuditVerification,
  BudgetAlertList,
  CreateAgentBody,
  CreateAgentResult,
  CreateApiKeyBody,
  CreatedApiKey,
  CreateIntentBody,
  CreatePolicyBody,
  CreateWebhookEndpointBody,
  DeleteAgentResult,
  DeleteWebhookEndpointResult,
  FundAgentBody,
  FundAgentResult,
  Intent,
  IntentDecisionBody,
  IntentList,
  IntentProgress,
  KillSwitch,
  KyaEscalationBody,
  KyaEscalationResult,
  KyaVerification,
  ListAuditEntriesQuery,
  ListBudgetAlertsQuery,
  ListIntentsQuery,
  ListPaymentSessionsQuery,
  ListPoliciesQuery,
  OpenPaymentSessionBody,
  OwnerTransaction,
  OwnerWallet,
  PauseAllAgentsResult,
  PaymentDetail,
  PaymentReceipt,
  Policy,
  PolicyChanges,
  PaymentSession,
  PaymentSessionDecisionBody,
  PaymentSessionList,
  PolicyList,
  ResumeAllAgentsResult,
  RotateAgentApiKeyResult,
  RotatedWebhookSecret,
  RotateWebhookSecretBody,
  SpendingRulesChanges,
  TopUpWalletBody,
  TopUpWalletResult,
  UpdateAgentIdentityBody,
  VerifyCredentialBody,
  VerifyCredentialResult,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointChanges,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
} from './types';

export interface OwnerClientOptions extends ConnectionOptions {
  /**
   * A session access token (sign-up or sign-in; it lasts an hour) or an owner API key. A
   * function is asked before every call, so it can hand out a refreshed token.
   */
  token: string | (() => string | Promise<string>);
}

function walletApi(t: Transport) {
  return {
    /** The owner's custodial wallet: USDC and USDT balances. */
    get: (options?: RequestOptions) => t.call<OwnerWallet>(op.getWallet, { options }),
    /** The 10 most recent wallet transactions, newest first. */
    transactions: (options?: RequestOptions) => t.call<OwnerTransaction[]>(op.listWalletTransactions, { options }),
    /** Adds sandbox funds to the wallet (409 `SANDBOX_ONLY` on a real network). Money-moving: idempotent. */
    topUp: (body: TopUpWalletBody, options?: MoneyRequestOptions) => t.call<TopUpWalletResult>(op.topUpWallet, { body, options }),
    /** Moves funds from the owner's wallet to one of their agents. Money-moving: idempotent. */
    fundAgent: (body: FundAgentBody, options?: MoneyRequestOptions) => t.call<FundAgentResult>(op.fundAgent, { body, options }),
  };
}

function agentsApi(t: Transport) {
  const agent = (agentId: string) => ({ agentId });
  return {
    /** The owner's agents with their wallets and spending rules. */
    list: (options?: RequestOptions) => t.call<Agent[]>(op.listAgents, { options }),
    /** Creates an agent: DID, keys, wallet, spending rules, credential, and an API key shown this once. */
    create: (body: CreateAgentBody, options?: RequestOptions) => t.call<CreateAgentResult>(op.createAgent, { body, options }),
    get: (agentId: string, options?: RequestOptions) => t.call<Agent>(op.getAgent, { params: agent(agentId), options }),
    /** Changes the limits it names (re-issues the agent's credential). */
    updateSpendingRules: (agentId: string, body: SpendingRulesChanges, options?: RequestOptions) =>
      t.call<Agent>(op.updateSpendingRules, { params: agent(agentId), body, options }),
    /** Its calls get 403 and its credential reads revoked until it is reactivated. */
    suspend: (agentId: string, options?: RequestOptions) => t.call<Agent>(op.suspendAgent, { params: agent(agentId), options }),
    reactivate: (agentId: string, options?: RequestOptions) => t.call<Agent>(op.reactivateAgent, { params: agent(agentId), options }),
    /** Keys and credential revoked, DID deactivated. */
    delete: (agentId: string, options?: RequestOptions) => t.call<DeleteAgentResult>(op.deleteAgent, { params: agent(agentId), options }),
    /** The old key stops working; the new one is in this answer only. */
    rotateApiKey: (agentId: string, options?: RequestOptions) =>
      t.call<RotateAgentApiKeyResult>(op.rotateAgentApiKey, { params: agent(agentId), options }),
    /** How the agent proves who it is to sellers: its signing keys (public halves), directory URL, signing rule, last request signed. */
    identity: (agentId: string, options?: RequestOptions) => t.call<AgentIdentity>(op.getAgentIdentity, { params: agent(agentId), options }),
    /** Which of the agent's requests are signed: `always` (the default), `paid_only` or `never`. */
    updateIdentity: (agentId: string, body: UpdateAgentIdentityBody, options?: RequestOptions) =>
      t.call<AgentIdentity>(op.updateAgentIdentity, { params: agent(agentId), body, options }),
    /** A new key signs from now on; the old one stays published 10 minutes so requests in flight verify. */
    rotateSigningKey: (agentId: string, options?: RequestOptions) =>
      t.call<AgentIdentity>(op.rotateAgentSigningKey, { params: agent(agentId), options }),
    /** For a key no longer trusted: it leaves the directory at once, and a new key signs from now on. */
    revokeSigningKey: (agentId: string, options?: RequestOptions) =>
      t.call<AgentIdentity>(op.revokeAgentSigningKey, { params: agent(agentId), options }),
    /** The agent's transactions as the owner sees them, newest first. */
    transactions: (agentId: string, query: AgentTransactionsQuery = {}, options?: RequestOptions) =>
      t.call<AgentTransaction[]>(op.listAgentTransactions, { params: agent(agentId), query, options }),
    /** Asks to raise the agent's KYA tier with evidence (sandbox verification). */
    requestKyaEscalation: (agentId: string, body: KyaEscalationBody, options?: RequestOptions) =>
      t.call<KyaEscalationResult>(op.requestKyaEscalation, { params: agent(agentId), body, options }),
    /** The agent's KYA verifications, newest first. */
    kyaVerifications: (agentId: string, options?: RequestOptions) =>
      t.call<KyaVerification[]>(op.listKyaVerifications, { params: agent(agentId), options }),
    /**
     * The kill switch: suspends every active agent at once (their outstanding x402 authorisations
     * are cancelled). `resumeAll` brings back exactly these, not agents suspended one by one.
     */
    pauseAll: (options?: RequestOptions) => t.call<PauseAllAgentsResult>(op.pauseAllAgents, { options }),
    /** Reactivates the agents `pauseAll` suspended. */
    resumeAll: (options?: RequestOptions) => t.call<ResumeAllAgentsResult>(op.resumeAllAgents, { options }),
    /** Whether the kill switch holds agents paused, how many, and since when. */
    killSwitch: (options?: RequestOptions) => t.call<KillSwitch>(op.getKillSwitch, { options }),
  };
}

function apiKeysApi(t: Transport) {
  return {
    /** The owner's API keys, never their secrets. */
    list: (options?: RequestOptions) => t.call<ApiKeyList>(op.listApiKeys, { options }),
    /**
     * Needs a session token, not an API key; the key is in this answer only. `scopes` (at least
     * one: read, payments:create, payments:approve, wallet:fund, agents:admin, policies:admin,
     * webhooks:admin) and `expires_in_days` (1 to 365) are required.
     */
    create: (body: CreateApiKeyBody, options?: RequestOptions) => t.call<CreatedApiKey>(op.createApiKey, { body, options }),
    revoke: (keyId: string, options?: RequestOptions) => t.call<ApiKey>(op.revokeApiKey, { params: { keyId }, options }),
  };
}

function credentialsApi(t: Transport) {
  return {
    /** Checks an agent's SD-JWT VC: signature, expiry and status list. */
    verify: (body: VerifyCredentialBody, options?: RequestOptions) => t.call<VerifyCredentialResult>(op.verifyCredential, { body, options }),
  };
}

function budgetAlertsApi(t: Transport) {
  return {
    /** Newest first: an agent's spend reached 80 or 100 % of its daily limit or of a policy's monthly budget. */
    list: (query: ListBudgetAlertsQuery = {}, options?: RequestOptions) => t.call<BudgetAlertList>(op.listBudgetAlerts, { query, options }),
  };
}

function policiesApi(t: Transport) {
  const policy = (policyId: string) => ({ policyId });
  return {
    /** Owner-wide policies first; with `agentId`, the ones that apply to that agent. */
    list: (query: ListPoliciesQuery = {}, options?: RequestOptions) => t.call<PolicyList>(op.listPolicies, { query, options }),
    /** For every agent, or for one (`agentId`); `shadow` evaluates and reports without enforcing. */
    create: (body: CreatePolicyBody, options?: RequestOptions) => t.call<Policy>(op.createPolicy, { body, options }),
    get: (policyId: string, options?: RequestOptions) => t.call<Policy>(op.getPolicy, { params: policy(policyId), options }),
    /** New rules or shadow write a new version (new id); `enabled` switches the current one. */
    update: (policyId: string, body: PolicyChanges, options?: RequestOptions) =>
      t.call<Policy>(op.updatePolicy, { params: policy(policyId), body, options }),
    /** Switched off and superseded; kept for the audit trail. */
    delete: (policyId: string, options?: RequestOptions) => t.call<Policy>(op.deletePolicy, { params: policy(policyId), options }),
  };
}

function paymentSessionsApi(t: Transport) {
  const session = (sessionId: string) => ({ sessionId });
  return {
    /** Opens a budget for one of your agents: open at once, with a total, an expiry (at most 30 days) and an optional cap per payment and scope. */
    open: (body: OpenPaymentSessionBody, options?: RequestOptions) => t.call<PaymentSession>(op.openPaymentSession, { body, options }),
    /** Newest first (200 at most), with what each spent; `agentId` and `status` narrow the list. */
    list: (query: ListPaymentSessionsQuery = {}, options?: RequestOptions) => t.call<PaymentSessionList>(op.listPaymentSessions, { query, options }),
    get: (sessionId: string, options?: RequestOptions) => t.call<PaymentSession>(op.getPaymentSession, { params: session(sessionId), options }),
    /** Grants an agent's request (possibly for less, or until sooner) or rejects it with a note; 409 once decided. */
    decide: (sessionId: string, body: PaymentSessionDecisionBody, options?: RequestOptions) =>
      t.call<PaymentSession>(op.decidePaymentSession, { params: session(sessionId), body, options }),
    /** Ends a waiting request or an open session at once. */
    revoke: (sessionId: string, options?: RequestOptions) => t.call<PaymentSession>(op.revokePaymentSession, { params: session(sessionId), options }),
  };
}

function intentsApi(t: Transport) {
  const intent = (intentId: string) => ({ intentId });
  return {
    /** Creates a payment intent; its payment workflow starts at once. Money-moving: idempotent. */
    create: (body: CreateIntentBody, options?: MoneyRequestOptions) => t.call<Intent>(op.createIntent, { body, options }),
    /**
     * Newest first, a page at a time (pass `nextCursor` as `cursor`); every filter given narrows.
     * `for await (const intent of purser.intents.list(query))` follows the cursor through every page.
     */
    list: (query: ListIntentsQuery = {}, options?: RequestOptions) => t.list<IntentList, Intent>(op.listIntents, { query, options }, (page) => page.intents),
    get: (intentId: string, options?: RequestOptions) => t.call<Intent>(op.getIntent, { params: intent(intentId), options }),
    /** One payment in full: its agent, rail operation, events, ledger entries, webhook deliveries, audit entries and workflow. */
    detail: (intentId: string, options?: RequestOptions) => t.call<PaymentDetail>(op.getPaymentDetail, { params: intent(intentId), options }),
    /** A settled payment's receipt, signed by the deployment's issuer key (verify it with its published keys). */
    receipt: (intentId: string, options?: RequestOptions) => t.call<PaymentReceipt>(op.getPaymentReceipt, { params: intent(intentId), options }),
    /** The payment workflow's current step and step history. */
    progress: (intentId: string, options?: RequestOptions) => t.call<IntentProgress>(op.getIntentProgress, { params: intent(intentId), options }),
    /** Attaches a policy to an intent before its gate decides. */
    attachPolicy: (intentId: string, body: AttachIntentPolicyBody, options?: RequestOptions) =>
      t.call<Intent>(op.attachIntentPolicy, { params: intent(intentId), body, options }),
    /** Approves an intent waiting for approval; it then settles. */
    approve: (intentId: string, body: IntentDecisionBody = {}, options?: RequestOptions) =>
      t.call<Intent>(op.approveIntent, { params: intent(intentId), body, options }),
    /** Rejects an intent waiting for approval; no money moves. */
    reject: (intentId: string, body: IntentDecisionBody = {}, options?: RequestOptions) =>
      t.call<Intent>(op.rejectIntent, { params: intent(intentId), body, options }),
    /** Cancels an intent before any funds are reserved. */
    cancel: (intentId: string, body: IntentDecisionBody = {}, options?: RequestOptions) =>
      t.call<Intent>(op.cancelIntent, { params: intent(intentId), body, options }),
  };
}

function webhooksApi(t: Transport) {
  const endpoint = (endpointId: string) => ({ endpointId });
  const delivery = (deliveryId: string) => ({ deliveryId });
  return {
    /** The owner's endpoints, never their secrets. */
    list: (options?: RequestOptions) => t.call<WebhookEndpointList>(op.listWebhookEndpoints, { options }),
    /** Registers an endpoint; its signing secret is in this answer only. */
    create: (body: CreateWebhookEndpointBody, options?: RequestOptions) => t.call<WebhookEndpointWithSecret>(op.createWebhookEndpoint, { body, options }),
    get: (endpointId: string, options?: RequestOptions) => t.call<WebhookEndpoint>(op.getWebhookEndpoint, { params: endpoint(endpointId), options }),
    update: (endpointId: string, body: WebhookEndpointChanges, options?: RequestOptions) =>
      t.call<WebhookEndpoint>(op.updateWebhookEndpoint, { params: endpoint(endpointId), body, options }),
    /** No new deliveries; its delivery log stays readable. */
    delete: (endpointId: string, options?: RequestOptions) =>
      t.call<DeleteWebhookEndpointResult>(op.deleteWebhookEndpoint, { params: endpoint(endpointId), options }),
    /**
     * Replaces the signing secret (a new one is generated unless given); the new one is in this answer only. The
     * replaced one signs beside it for `overlapSeconds` (default 24 h; 0 stops it at once) until `previousSecretExpiresAt`.
     */
    rotateSecret: (endpointId: string, body: RotateWebhookSecretBody = {}, options?: RequestOptions) =>
      t.call<RotatedWebhookSecret>(op.rotateWebhookSecret, { params: endpoint(endpointId), body, options }),
    /** The endpoint's deliveries, newest first, a page at a time; `for await` follows the cursor through every page. */
    deliveries: (endpointId: string, query: WebhookDeliveriesQuery = {}, options?: RequestOptions) =>
      t.list<WebhookDeliveryList, WebhookDelivery>(op.listWebhookEndpointDeliveries, { params: endpoint(endpointId), query, options }, (page) => page.deliveries),
    /** One delivery with its body and every attempt. */
    getDelivery: (deliveryId: string, options?: RequestOptions) =>
      t.call<WebhookDeliveryDetail>(op.getWebhookDelivery, { params: delivery(deliveryId), options }),
    /** Sends a delivery again: same `webhook-id`, current URL and secret. */
    redeliver: (deliveryId: string, options?: RequestOptions) =>
      t.call<WebhookDelivery>(op.redeliverWebhook, { params: delivery(deliveryId), options }),
  };
}

function auditApi(t: Transport) {
  return {
    /**
     * Newest first, a page at a time (pass `nextCursor` as `cursor`); a `subject` ending in `*`
     * matches a prefix. `for await` follows the cursor through every page.
     */
    list: (query: ListAuditEntriesQuery = {}, options?: RequestOptions) => t.list<AuditEntryList, AuditEntry>(op.listAuditEntries, { query, options }, (page) => page.entries),
    /** Checks the owner's hash chain: verified through entry N, or broken at entry N and why. */
    verify: (options?: RequestOptions) => t.call<AuditVerification>(op.verifyAuditChain, { options }),
    /**
     * The whole audit log as JSON Lines text, oldest first, one `AuditExportLine` per line: the
     * file `npm run audit:verify -- --file` checks. A long log may need a larger `timeoutMs`.
     */
    export: (options?: RequestOptions) => t.call<string>(op.exportAuditEntries, { options }),
  };
}

export type WalletApi = ReturnType<typeof walletApi>;
export type AgentsApi = ReturnType<typeof agentsApi>;
export type ApiKeysApi = ReturnType<typeof apiKeysApi>;
export type CredentialsApi = ReturnType<typeof credentialsApi>;
export type BudgetAlertsApi = ReturnType<typeof budgetAlertsApi>;
export type PoliciesApi = ReturnType<typeof policiesApi>;
export type PaymentSessionsApi = ReturnType<typeof paymentSessionsApi>;
export type IntentsApi = ReturnType<typeof intentsApi>;
export type WebhooksApi = ReturnType<typeof webhooksApi>;
export type AuditApi = ReturnType<typeof auditApi>;

/**
 * ```ts
 * const purser = new PurserOwnerClient({ baseUrl: 'http://127.0.0.1:3000', token: process.env.PURSER_OWNER_TOKEN! });
 * const wallet = await purser.wallet.get();
 * ```
 */
export class PurserOwnerClient {
  readonly wallet: WalletApi;
  readonly agents: AgentsApi;
  readonly apiKeys: ApiKeysApi;
  readonly credentials: CredentialsApi;
  readonly budgetAlerts: BudgetAlertsApi;
  readonly policies: PoliciesApi;
  readonly paymentSessions: PaymentSessionsApi;
  readonly intents: IntentsApi;
  readonly webhooks: WebhooksApi;
  readonly audit: AuditApi;

  constructor(options: OwnerClientOptions) {
    const { token, ...connection } = options;
    const transport = new Transport(connection, async () => ({ authorization: `Bearer ${typeof token === 'function' ? await token() : token}` }));
    this.wallet = walletApi(transport);
    this.agents = agentsApi(transport);
    this.apiKeys = apiKeysApi(transport);
    this.credentials = credentialsApi(transport);
    this.budgetAlerts = budgetAlertsApi(transport);
    this.policies = policiesApi(transport);
    this.paymentSessions = paymentSessionsApi(transport);
    this.intents = intentsApi(transport);
    this.webhooks = webhooksApi(transport);
    this.audit = auditApi(transport);
  }
}
