/**
 * Every HTTP operation the SDK can send, keyed by the operationId the server's OpenAPI document
 * gives it (server/src/http/api-v1/openapi.ts builds that document from the route
 * declarations). operations.test.ts builds the same document and checks this table against it
 * both ways, so an operation added, moved or made money-moving on the server fails the SDK's
 * tests until the SDK follows.
 */

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Where an operation lives: the owner API, the agent API, or the session routes. */
export type ApiSurface = 'owner' | 'agent' | 'auth';

/** The media type of a JSON Lines download (the audit export). */
export const JSON_LINES = 'application/x-ndjson';

export interface Operation {
  readonly operationId: string;
  readonly method: HttpMethod;
  readonly surface: ApiSurface;
  /** Below the surface's base path, in OpenAPI form: `/agents/{agentId}`. */
  readonly path: string;
  /**
   * Money-moving: every call carries an `Idempotency-Key` (the caller's or a random UUID), and
   * the SDK's retries of that call reuse it, so a retry can never pay twice.
   */
  readonly idempotencyKey?: true;
  /** A POST that only reads, so sending it twice changes nothing. */
  readonly readOnly?: true;
  /**
   * Answers a download of JSON Lines rather than one JSON document: the SDK asks for this media
   * type and hands back the text as it came.
   */
  readonly stream?: typeof JSON_LINES;
}

export const OWNER_API_BASE_PATH = '/api/v1';
/** Equal to core's AGENT_API_PREFIX (checked by a test); the SDK's runtime imports nothing from core. */
export const AGENT_API_BASE_PATH = '/functions/v1/mcp-server';
/** The session routes; they are not in the OpenAPI document. */
export const AUTH_BASE_PATH = '/auth/v1';

export const BASE_PATHS: Readonly<Record<ApiSurface, string>> = {
  owner: OWNER_API_BASE_PATH,
  agent: AGENT_API_BASE_PATH,
  auth: AUTH_BASE_PATH,
};

type OperationFlags = Pick<Operation, 'idempotencyKey' | 'readOnly' | 'stream'>;

function owner(method: HttpMethod, path: string, extra: OperationFlags = {}) {
  return { method, path, surface: 'owner' as const, ...extra };
}

function agent(method: HttpMethod, path: string, extra: OperationFlags = {}) {
  return { method, path, surface: 'agent' as const, ...extra };
}

const MONEY = { idempotencyKey: true } as const;
const READ = { readOnly: true } as const;
const DOWNLOAD = { stream: JSON_LINES } as const;

const table = {
  // Wallet
  getWallet: owner('GET', '/wallet'),
  listWalletTransactions: owner('GET', '/wallet/transactions'),
  topUpWallet: owner('POST', '/wallet/top-up', MONEY),
  fundAgent: owner('POST', '/wallet/fund-agent', MONEY),
  // Agents
  listAgents: owner('GET', '/agents'),
  // The kill switch: every active agent at once, and back.
  pauseAllAgents: owner('POST', '/agents/pause-all'),
  resumeAllAgents: owner('POST', '/agents/resume-all'),
  getKillSwitch: owner('GET', '/agents/kill-switch'),
  createAgent: owner('POST', '/agents'),
  getAgent: owner('GET', '/agents/{agentId}'),
  updateSpendingRules: owner('PATCH', '/agents/{agentId}/spending-rules'),
  suspendAgent: owner('POST', '/agents/{agentId}/suspend'),
  reactivateAgent: owner('POST', '/agents/{agentId}/reactivate'),
  deleteAgent: owner('DELETE', '/agents/{agentId}'),
  rotateAgentApiKey: owner('POST', '/agents/{agentId}/api-key'),
  // How the agent proves who it is to sellers: its request-signing key and the owner's rule.
  getAgentIdentity: owner('GET', '/agents/{agentId}/identity'),
  updateAgentIdentity: owner('PATCH', '/agents/{agentId}/identity'),
  rotateAgentSigningKey: owner('POST', '/agents/{agentId}/identity/rotate-key'),
  revokeAgentSigningKey: owner('POST', '/agents/{agentId}/identity/revoke-key'),
  listAgentTransactions: owner('GET', '/agents/{agentId}/transactions'),
  requestKyaEscalation: owner('POST', '/agents/{agentId}/kya-escalations'),
  listKyaVerifications: owner('GET', '/agents/{agentId}/kya-verifications'),
  // API keys
  listApiKeys: owner('GET', '/api-keys'),
  createApiKey: owner('POST', '/api-keys'),
  revokeApiKey: owner('DELETE', '/api-keys/{keyId}'),
  // Credentials
  verifyCredential: owner('POST', '/credentials/verify', READ),
  // Budget alerts
  listBudgetAlerts: owner('GET', '/budget-alerts'),
  // Policies
  listPolicies: owner('GET', '/policies'),
  createPolicy: owner('POST', '/policies'),
  getPolicy: owner('GET', '/policies/{policyId}'),
  updatePolicy: owner('PATCH', '/policies/{policyId}'),
  deletePolicy: owner('DELETE', '/policies/{policyId}'),
  // Payment intents
  createIntent: owner('POST', '/intents', MONEY),
  listIntents: owner('GET', '/intents'),
  getIntent: owner('GET', '/intents/{intentId}'),
  getPaymentDetail: owner('GET', '/intents/{intentId}/detail'),
  getPaymentReceipt: owner('GET', '/intents/{intentId}/receipt'),
  getIntentProgress: owner('GET', '/intents/{intentId}/progress'),
  attachIntentPolicy: owner('POST', '/intents/{intentId}/policy'),
  approveIntent: owner('POST', '/intents/{intentId}/approve'),
  rejectIntent: owner('POST', '/intents/{intentId}/reject'),
  cancelIntent: owner('POST', '/intents/{intentId}/cancel'),
  // Payment sessions
  openPaymentSession: owner('POST', '/payment-sessions'),
  listPaymentSessions: owner('GET', '/payment-sessions'),
  getPaymentSession: owner('GET', '/payment-sessions/{sessionId}'),
  decidePaymentSession: owner('POST', '/payment-sessions/{sessionId}/decide'),
  revokePaymentSession: owner('POST', '/payment-sessions/{sessionId}/revoke'),
  // Webhooks
  listWebhookEndpoints: owner('GET', '/webhooks'),
  createWebhookEndpoint: owner('POST', '/webhooks'),
  getWebhookEndpoint: owner('GET', '/webhooks/{endpointId}'),
  updateWebhookEndpoint: owner('PATCH', '/webhooks/{endpointId}'),
  deleteWebhookEndpoint: owner('DELETE', '/webhooks/{endpointId}'),
  rotateWebhookSecret: owner('POST', '/webhooks/{endpointId}/rotate-secret'),
  listWebhookEndpointDeliveries: owner('GET', '/webhooks/{endpointId}/deliveries'),
  getWebhookDelivery: owner('GET', '/webhook-deliveries/{deliveryId}'),
  redeliverWebhook: owner('POST', '/webhook-deliveries/{deliveryId}/redeliver'),
  // Audit log
  listAuditEntries: owner('GET', '/audit-entries'),
  verifyAuditChain: owner('GET', '/audit-entries/verification'),
  exportAuditEntries: owner('GET', '/audit-entries/export', DOWNLOAD),
  // Agent API
  agentBalance: agent('GET', '/balance'),
  agentPayment: agent('POST', '/payment', MONEY),
  agentPaymentStatus: agent('GET', '/payment/{intentId}'),
  agentPaymentByKey: agent('GET', '/payment'),
  agentPaymentReceipt: agent('GET', '/payment/{intentId}/receipt'),
  agentTransactions: agent('GET', '/transactions'),
  agentInfo: agent('GET', '/info'),
  agentRequestBudget: agent('POST', '/budget/request'),
  agentBudget: agent('GET', '/budget/{sessionId}'),
  agentBudgets: agent('GET', '/budgets'),
  // Not read-only: it calls the seller's URL, with the method and body the agent chose.
  x402Requirements: agent('POST', '/x402/requirements'),
  x402SignPayment: agent('POST', '/x402/sign-payment', MONEY),
  x402Proxy: agent('POST', '/x402/proxy'),
  // The paid fetch, for x402 and MPP sellers alike; /x402/fetch is its first name, kept as an alias.
  payFetch: agent('POST', '/pay/fetch', MONEY),
  x402Fetch: agent('POST', '/x402/fetch', MONEY),
  agentChannels: agent('GET', '/x402/channels'),
  agentChannel: agent('GET', '/x402/channels/{intentId}'),
  agentCloseChannel: agent('POST', '/x402/channels/{intentId}/close'),
  // Sessions (/auth/v1): not in the OpenAPI document.
  signUp: { method: 'POST', path: '/signup', surface: 'auth' },
  signIn: { method: 'POST', path: '/token', surface: 'auth' },
  refreshSession: { method: 'POST', path: '/token', surface: 'auth' },
} satisfies Record<string, Omit<Operation, 'operationId'>>;

export type OperationId = keyof typeof table;

export const OPERATIONS = Object.fromEntries(
  Object.entries(table).map(([operationId, operation]) => [operationId, { operationId, ...operation }]),
) as { readonly [K in OperationId]: Operation & { readonly operationId: K } };
