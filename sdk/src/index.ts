/**
 * @purser/sdk: a typed client for Purser's owner API, agent API and webhooks. The package's
 * public surface is what this file exports; everything else is internal.
 */
export { PurserOwnerClient, type OwnerClientOptions } from './owner-client';
export type { AgentsApi, ApiKeysApi, AuditApi, BudgetAlertsApi, CredentialsApi, IntentsApi, PaymentSessionsApi, PoliciesApi, WalletApi, WebhooksApi } from './owner-client';
export { PurserAgentClient, DEFAULT_X402_MAX_AMOUNT, type AgentClientOptions, type X402Api } from './agent-client';
export { wrapFetch, x402PaymentInfo, type WrapFetchOptions, type X402CallOptions, type X402PaymentInfo, type X402RequestInit } from './wrap-fetch';
export { ApiPromise, PagePromise, type ResponseMeta, type RateLimit, type WithResponse } from './api-promise';
export { signUp, signIn, refreshSession } from './auth';
export { verifyWebhook, signWebhook, WebhookVerificationError, DEFAULT_WEBHOOK_TOLERANCE_SECONDS, WEBHOOK_SECRET_PREFIX } from './webhooks';
export type { VerifyWebhookOptions, WebhookHeaders, WebhookVerificationFailure } from './webhooks';
export { PurserError, PurserApiError, PurserConnectionError, X402PriceCapError, X402PaymentPendingError, isPurserApiError, UNEXPECTED_RESPONSE } from './errors';
export { DEFAULT_RETRY, type RetryOptions } from './retry';
export { DEFAULT_TIMEOUT_MS, type ConnectionOptions, type RequestOptions, type MoneyRequestOptions } from './transport';
export { OPERATIONS, OWNER_API_BASE_PATH, AGENT_API_BASE_PATH, type Operation, type OperationId } from './operations';
export type * from './types';
