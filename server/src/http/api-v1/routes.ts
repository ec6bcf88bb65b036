/**
 * The owner REST API (/api/v1). Each route calls the same service as its tRPC procedure,
 * with the same zod contract from @purser/core; ownership is checked in the services.
 */
import { z } from 'zod';
import {
  agentIdSchema,
  agentTransactionView,
  agentView,
  AppError,
  budgetAlertListView,
  createAgentInput,
  createAgentResult,
  createdOwnerApiKeyView,
  createOwnerApiKeyInput,
  deleteAgentResult,
  fundAgentInput,
  fundAgentResult,
  killSwitchView,
  listBudgetAlertsInput,
  ownerApiKeyListView,
  ownerApiKeyView,
  ownerTransactionView,
  ownerWalletView,
  pauseAllAgentsResult,
  resumeAllAgentsResult,
  rotateAgentApiKeyResult,
  spendingRulesChanges,
  topUpWalletInput,
  topUpWalletResult,
  verifyCredentialInput,
  verifyCredentialResult,
} from '@purser/core';
import { createAgent } from '../../services/agents/create-agent';
import { deleteAgent } from '../../services/agents/delete-agent';
import { getAgent } from '../../services/agents/get-agent';
import { getKillSwitch } from '../../services/agents/get-kill-switch';
import { listAgentTransactions } from '../../services/agents/list-agent-transactions';
import { listAgents } from '../../services/agents/list-agents';
import { pauseAllAgents } from '../../services/agents/pause-all-agents';
import { reactivateAgent } from '../../services/agents/reactivate-agent';
import { resumeAllAgents } from '../../services/agents/resume-all-agents';
import { rotateAgentApiKey } from '../../services/agents/rotate-agent-api-key';
import { suspendAgent } from '../../services/agents/suspend-agent';
import { updateSpendingRules } from '../../services/agents/update-spending-rules';
import { createOwnerApiKey } from '../../services/api-keys/create-owner-api-key';
import { listOwnerApiKeys } from '../../services/api-keys/list-owner-api-key';
import { revokeOwnerApiKey } from '../../services/api-keys/revoke-owner-api-key';
import { listBudgetAlerts } from '../../services/budgets/list-budget-alerts';
import { verifyAgentCredential } from '../../services/identity/verify-agent-credential';
import { fundAgentAndMirror } from '../../services/wallets/fund-agent';
import { getOwnerWallet } from '../../services/wallets/get-owner-wallet';
import { listOwnerTransactions } from '../../services/wallets/list-owner-transactions';
import { topUpWallet } from '../../services/wallets/top-up-wallet';
import { agentIdentityRoutes } from './agent-identity-routes';
import { auditRoutes } from './audit-routes';
import { defineRoute, type ApiRoute } from './define-route';
import { intentRoutes } from './intent-routes';
import { kyaRoutes } from './kya-routes';
import { paymentSessionRoutes } from './payment-session-routes';
import { policyRoutes } from './policy-routes';
import { webhookRoutes } from './webhook-routes';

const agentParams = z.object({ agentId: agentIdSchema });
const apiKeyParams = z.object({ keyId: z.uuid({ error: 'API key id must be a UUID' }) });
const transactionsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

const wallet = [
  defineRoute({
    method: 'GET',
    path: '/wallet',
    operationId: 'getWallet',
    summary: "The owner's custodial wallet: USDC and USDT balances",
    tag: 'Wallet',
    scope: 'read',
    response: ownerWalletView,
    async handler({ deps, owner }) {
      const view = await getOwnerWallet(deps.db.prisma, owner.userId);
      if (!view) throw new AppError('NOT_FOUND', 'Wallet not found');
      return view;
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/wallet/transactions',
    operationId: 'listWalletTransactions',
    summary: 'The 10 most recent wallet transactions, newest first',
    tag: 'Wallet',
    scope: 'read',
    response: z.array(ownerTransactionView),
    handler: ({ deps, owner }) => listOwnerTransactions(deps.db.prisma, owner.userId),
  }),
  defineRoute({
    method: 'POST',
    path: '/wallet/top-up',
    operationId: 'topUpWallet',
    summary: 'Add funds to the wallet from the sandbox funding source (sandbox chain only: 409 SANDBOX_ONLY on a real network)',
    tag: 'Wallet',
    scope: 'wallet:fund',
    idempotent: true,
    body: topUpWalletInput,
    response: topUpWalletResult,
    async handler({ deps, owner, body, idempotencyKey, reply }) {
      const result = await topUpWallet(
        deps,
        owner.userId,
        { amount: body.amount, currency: body.currency },
        { idempotencyKey },
      );
      if (result.replayed) reply.header('Idempotent-Replayed', 'true');
      return result.response;
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/wallet/fund-agent',
    operationId: 'fundAgent',
    summary: "Move funds from the owner's wallet to one of the owner's agents",
    tag: 'Wallet',
    scope: 'wallet:fund',
    idempotent: true,
    body: fundAgentInput,
    response: fundAgentResult,
    async handler({ deps, owner, body, idempotencyKey, reply }) {
      const result = await fundAgentAndMirror(deps, owner.userId, { agentId: body.agent_id, amount: body.amount, currency: body.currency }, { idempotencyKey });
      if (result.replayed) reply.header('Idempotent-Replayed', 'true');
      return result.response;
    },
  }),
];

const agents = [
  defineRoute({
    method: 'GET',
    path: '/agents',
    operationId: 'listAgents',
    summary: "The owner's agents with their wallets and spending rules",
    tag: 'Agents',
    scope: 'read',
    response: z.array(agentView),
    handler: ({ deps, owner }) => listAgents(deps, owner.userId),
  }),
  defineRoute({
    method: 'POST',
    path: '/agents/pause-all',
    operationId: 'pauseAllAgents',
    summary: "Kill switch: suspend every active agent of the owner at once (their outstanding x402 authorisations are cancelled); Resume brings back exactly these",
    tag: 'Agents',
    scope: 'agents:admin',
    response: pauseAllAgentsResult,
    handler: ({ deps, owner }) => pauseAllAgents(deps, owner.userId),
  }),
  defineRoute({
    method: 'POST',
    path: '/agents/resume-all',
    operationId: 'resumeAllAgents',
    summary: 'Kill switch: reactivate the agents Pause all suspended, not those suspended one by one',
    tag: 'Agents',
    scope: 'agents:admin',
    response: resumeAllAgentsResult,
    handler: ({ deps, owner }) => resumeAllAgents(deps, owner.userId),
  }),
  defineRoute({
    method: 'GET',
    path: '/agents/kill-switch',
    operationId: 'getKillSwitch',
    summary: 'Kill switch state: whether agents are paused by it, how many, and since when',
    tag: 'Agents',
    scope: 'read',
    response: killSwitchView,
    handler: ({ deps, owner }) => getKillSwitch(deps.db.prisma, owner.userId),
  }),
  defineRoute({
    method: 'POST',
    path: '/agents',
    operationId: 'createAgent',
    summary: 'Create an agent: DID, keys, wallet, spending rules, credential and an API key shown once',
    tag: 'Agents',
    scope: 'agents:admin',
    status: 201,
    body: createAgentInput,
    response: createAgentResult,
    handler: ({ deps, owner, body }) => createAgent(deps, owner.userId, body),
  }),
  defineRoute({
    method: 'GET',
    path: '/agents/:agentId',
    operationId: 'getAgent',
    summary: 'One agent',
    tag: 'Agents',
    scope: 'read',
    params: agentParams,
    response: agentView,
    handler: ({ deps, owner, params }) => getAgent(deps, owner.userId, params.agentId),
  }),
  defineRoute({
    method: 'PATCH',
    path: '/agents/:agentId/spending-rules',
    operationId: 'updateSpendingRules',
    summary: "Change an agent's spending limits (re-issues its credential)",
    tag: 'Agents',
    scope: 'agents:admin',
    params: agentParams,
    body: spendingRulesChanges,
    response: agentView,
    handler: ({ deps, owner, params, body }) => updateSpendingRules(deps, owner.userId, { ...body, agent_id: params.agentId }),
  }),
  defineRoute({
    method: 'POST',
    path: '/agents/:agentId/suspend',
    operationId: 'suspendAgent',
    summary: 'Suspend an agent: its calls get 403 and its credential reads revoked',
    tag: 'Agents',
    scope: 'agents:admin',
    params: agentParams,
    response: agentView,
    handler: ({ deps, owner, params }) => suspendAgent(deps, owner.userId, params.agentId),
  }),
  defineRoute({
    method: 'POST',
    path: '/agents/:agentId/reactivate',
    operationId: 'reactivateAgent',
    summary: 'Reactivate a suspended agent',
    tag: 'Agents',
    scope: 'agents:admin',
    params: agentParams,
    response: agentView,
    handler: ({ deps, owner, params }) => reactivateAgent(deps, owner.userId, params.agentId),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/agents/:agentId',
    operationId: 'deleteAgent',
    summary: 'Delete an agent: keys revoked, credential revoked, DID deactivated',
    tag: 'Agents',
    scope: 'agents:admin',
    params: agentParams,
    response: deleteAgentResult,
    handler: ({ deps, owner, params }) => deleteAgent(deps, owner.userId, params.agentId),
  }),
  defineRoute({
    method: 'POST',
    path: '/agents/:agentId/api-key',
    operationId: 'rotateAgentApiKey',
    summary: "Rotate an agent's API key: the old one stops working, the new one is shown once",
    tag: 'Agents',
    scope: 'agents:admin',
    params: agentParams,
    response: rotateAgentApiKeyResult,
    handler: ({ deps, owner, params }) => rotateAgentApiKey(deps, owner.userId, params.agentId),
  }),
  defineRoute({
    method: 'GET',
    path: '/agents/:agentId/transactions',
    operationId: 'listAgentTransactions',
    summary: "An agent's transactions, newest first",
    tag: 'Agents',
    scope: 'read',
    params: agentParams,
    query: transactionsQuery,
    response: z.array(agentTransactionView),
    handler: ({ deps, owner, params, query }) => listAgentTransactions(deps, owner.userId, params.agentId, { limit: query.limit }),
  }),
];

const apiKeys = [
  defineRoute({
    method: 'GET',
    path: '/api-keys',
    operationId: 'listApiKeys',
    summary: "The owner's API keys (never their secrets)",
    tag: 'API keys',
    scope: 'read',
    response: ownerApiKeyListView,
    handler: ({ deps, owner }) => listOwnerApiKeys(deps.db.prisma, owner),
  }),
  defineRoute({
    method: 'POST',
    path: '/api-keys',
    operationId: 'createApiKey',
    summary: 'Create an owner API key; the key is in this response only',
    tag: 'API keys',
    scope: 'session',
    status: 201,
    body: createOwnerApiKeyInput,
    response: createdOwnerApiKeyView,
    handler: ({ deps, owner, body }) => createOwnerApiKey(deps.db.prisma, owner, body),
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api-keys/:keyId',
    operationId: 'revokeApiKey',
    summary: 'Revoke an owner API key',
    tag: 'API keys',
    scope: 'session',
    params: apiKeyParams,
    response: ownerApiKeyView,
    handler: ({ deps, owner, params }) => revokeOwnerApiKey(deps.db.prisma, owner, { id: params.keyId }),
  }),
];

const credentials = [
  defineRoute({
    method: 'POST',
    path: '/credentials/verify',
    operationId: 'verifyCredential',
    summary: "Verify an agent's SD-JWT VC: signature, expiry and status list (no sign-in needed)",
    tag: 'Credentials',
    auth: 'public',
    body: verifyCredentialInput,
    response: verifyCredentialResult,
    handler: ({ deps, body }) => verifyAgentCredential({ ...deps, prisma: deps.db.prisma }, body.credential),
  }),
];

const budgetAlerts = [
  defineRoute({
    method: 'GET',
    path: '/budget-alerts',
    operationId: 'listBudgetAlerts',
    summary: "Budget alerts, newest first: an agent's spend reached 80 or 100 % of its daily limit or of a policy's monthly budget (also sent as budget.threshold webhooks)",
    tag: 'Budget alerts',
    scope: 'read',
    query: listBudgetAlertsInput,
    response: budgetAlertListView,
    handler: ({ deps, owner, query }) => listBudgetAlerts(deps.db.prisma, owner.userId, query),
  }),
];

export const apiRoutes: ApiRoute[] = [...wallet, ...agents, ...agentIdentityRoutes, ...apiKeys, ...credentials, ...budgetAlerts, ...kyaRoutes, ...policyRoutes, ...intentRoutes, ...paymentSessionRoutes, ...webhookRoutes, ...auditRoutes] as ApiRoute[];
