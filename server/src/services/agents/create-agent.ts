/**
 * Creates an agent in one database transaction: the agent with its DID, an Ed25519 identity
 * key and a secp256k1 wallet key (both encrypted at rest), its wallet, its spending rules,
 * its verifiable credential and an API key that is answered this once.
 *
 * The wallet's `walletAddress` (the address on the internal ledger rail) is the agent's EVM
 * address as well: one address names the agent wherever money reaches it, and a payment to it
 * from another agent can settle on the ledger instead of the chain. Ledger accounts are made
 * on first use by the ledger service.
 */
import { BASE_SEPOLIA_NETWORK, formatAgentDid, type CreateAgentInput, type CreateAgentResult } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { withAuditRetry } from '../audit/append-audit-event';
import { agentKeyColumns, generateAgentKeys } from '../identity/agent-keys';
import { createAgentApiKeyRow } from './agent-api-key-secret';
import { recordAgentChange, spendingRulesAuditData } from './record-agent-change';
import { newAgentId, reissueAgentCredential, type AgentServiceDeps } from './owned-agent';
import { agentSelect, serializeAgent } from './serialize-agent';

export async function createAgent(deps: AgentServiceDeps, ownerId: string, input: CreateAgentInput): Promise<CreateAgentResult> {
  return withAuditRetry(deps.db.prisma, (tx: TransactionClient) => createAgentInTransaction(tx, deps, ownerId, input));
}

/**
 * The same inside a transaction the caller holds, for a caller that records something in it
 * too (the assistant's idempotency record). Safe to run again after a rollback.
 */
export async function createAgentInTransaction(
  tx: TransactionClient,
  deps: AgentServiceDeps,
  ownerId: string,
  input: CreateAgentInput,
): Promise<CreateAgentResult> {
  const agentId = newAgentId();
  const keys = generateAgentKeys(deps.masterKey);
  await tx.agent.create({
    data: {
      id: agentId,
      ownerId,
      name: input.name,
      description: input.description,
      did: formatAgentDid(agentId),
      keys: {
        create: [keys.identity, keys.evm, keys.httpSignature].map(agentKeyColumns),
      },
      wallet: {
        create: { walletAddress: keys.evm.address, evmWalletAddress: keys.evm.address, blockchainNetwork: BASE_SEPOLIA_NETWORK },
      },
      spendingRules: { create: { maxTransactionAmount: input.max_transaction_amount, maxDailyLimit: input.max_daily_limit } },
    },
    select: { id: true },
  });
  await reissueAgentCredential(tx, deps, agentId, { newStatusIndex: false });
  const apiKey = await createAgentApiKeyRow(tx, agentId);
  const agent = serializeAgent(await tx.agent.findUniqueOrThrow({ where: { id: agentId }, select: agentSelect }));
  await recordAgentChange(tx, ownerId, agentId, 'created', { name: agent.name, did: agent.did, status: agent.status, ...spendingRulesAuditData(agent) });
  return { agent, api_key: apiKey };
}
