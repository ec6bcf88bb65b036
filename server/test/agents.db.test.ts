/**
 * Agents through their services and the tRPC agents router, on a real database: creation
 * (DID, keys encrypted at rest, wallet, rules, credential, API key), owner isolation, status
 * changes, API key rotation, agent authentication and the network the connect page reads.
 */
import { createHash, createPublicKey, randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AGENT_NAME_MESSAGE,
  createAgentInput,
  formatAgentDid,
  updateSpendingRulesInput,
  type CreateAgentBody,
  type CreateAgentResult,
} from '@purser/core';
import { userPublicSelect, type PrismaClient } from '@purser/db';
import { authenticateAgent } from '../src/services/agents/authenticate-agent';
import { createAgent } from '../src/services/agents/create-agent';
import { deleteAgent } from '../src/services/agents/delete-agent';
import { getAgent } from '../src/services/agents/get-agent';
import { listAgentTransactions } from '../src/services/agents/list-agent-transactions';
import { listAgents } from '../src/services/agents/list-agents';
import { reactivateAgent } from '../src/services/agents/reactivate-agent';
import { rotateAgentApiKey } from '../src/services/agents/rotate-agent-api-key';
import { suspendAgent } from '../src/services/agents/suspend-agent';
import { updateSpendingRules } from '../src/services/agents/update-spending-rules';
import { issueSession } from '../src/services/auth/issue-session';
import { ed25519PrivateKeyFromSeed } from '../src/services/identity/platform-issuer';
import { agentKeyBinding, readAgentPrivateKey } from '../src/services/identity/agent-keys';
import { decryptSecret } from '../src/secrets';
import { errorOf } from './support/errors';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
let prisma: PrismaClient;

beforeAll(async () => {
  t = await createTestApp();
  prisma = t.deps.db.prisma;
});

afterAll(async () => {
  await t?.cleanup();
});

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const AGENT_KEY_PATTERN = /^pak_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/;

interface Owner {
  userId: string;
  token: string;
}

/** An owner made directly in the database (sign-up is not under test here) with a session. */
async function newOwner(name = 'Agent Owner'): Promise<Owner> {
  const user = await prisma.user.create({
    data: { email: `${randomUUID()}@example.test`, passwordHash: 'not-a-real-hash', fullName: name, wallet: { create: {} } },
    select: userPublicSelect,
  });
  const session = await issueSession(t.deps, prisma, user);
  return { userId: user.id, token: session.access_token };
}

function create(owner: Owner, body: CreateAgentBody): Promise<CreateAgentResult> {
  return createAgent(t.deps, owner.userId, createAgentInput.parse(body));
}

function trpcQuery(path: string, input: unknown, token?: string): Promise<LightMyRequestResponse> {
  const search = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  return t.app.inject({ method: 'GET', url: `/trpc/${path}${search}`, headers: token ? { authorization: `Bearer ${token}` } : {} });
}

function trpcMutation(path: string, input: unknown, token?: string): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: `/trpc/${path}`,
    payload: input as object,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

function trpcError(response: LightMyRequestResponse): { message: string; data: { code: string; httpStatus: number; appCode: string | null } } {
  return response.json().error;
}

function agentCredentials(did: string, key: string) {
  return { did, authorization: `Bearer ${key}` };
}

describe('creating an agent', () => {
  it('gives the agent a did:agnic DID, a Base Sepolia wallet, default limits of 100 and 1000 dollars, a credential and a key', async () => {
    const owner = await newOwner();
    const response = await trpcMutation('agents.create', { name: '  Shopping bot ', description: 'Buys things' }, owner.token);
    expect(response.statusCode).toBe(200);
    const { agent, api_key } = response.json().result.data as CreateAgentResult;

    expect(agent.did).toMatch(new RegExp(`^did:agnic:${UUID}$`));
    expect(agent.did).toBe(formatAgentDid(agent.id));
    expect(agent).toMatchObject({ name: 'Shopping bot', description: 'Buys things', owner_id: owner.userId, status: 'active', kya_tier: 'basic' });
    expect(agent.spending_rules).toEqual({
      max_transaction_amount: 100,
      max_daily_limit: 1000,
      max_transaction_amount_exact: '100',
      max_daily_limit_exact: '1000',
      approval_threshold: null,
      approval_threshold_exact: null,
    });
    expect(agent.agent_wallets).toMatchObject({ balance_usdc: 0, balance_usdt: 0, balance_usdc_exact: '0', blockchain_network: 'base-sepolia' });
    expect(agent.agent_wallets?.evm_wallet_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(agent.agent_wallets?.wallet_address).toBe(agent.agent_wallets?.evm_wallet_address);
    expect(agent.verifiable_credential?.format).toBe('dc+sd-jwt');
    expect(agent.verifiable_credential?.claims).toMatchObject({ sub: agent.did, owner: owner.userId, agent_status: 'active' });
    expect(api_key.key).toMatch(AGENT_KEY_PATTERN);

    const rules = await prisma.spendingRules.findUniqueOrThrow({ where: { agentId: agent.id } });
    expect(rules.maxTransactionAmount).toBe(100_000_000n);
    expect(rules.maxDailyLimit).toBe(1_000_000_000n);
    const stored = await prisma.agent.findUniqueOrThrow({ where: { id: agent.id }, select: { verifiableCredential: true } });
    expect(stored.verifiableCredential).toEqual(agent.verifiable_credential);
  });

  it('refuses a blank name with "Please enter an agent name" and creates nothing', async () => {
    const owner = await newOwner();
    const response = await trpcMutation('agents.create', { name: '   ' }, owner.token);
    expect(response.statusCode).toBe(400);
    expect(trpcError(response).message).toContain(AGENT_NAME_MESSAGE);
    expect(createAgentInput.safeParse({ name: '' }).error?.issues[0]?.message).toBe(AGENT_NAME_MESSAGE);
    expect(await prisma.agent.count({ where: { ownerId: owner.userId } })).toBe(0);
  });

  it('keeps limits to the micro-dollar and accepts zero', async () => {
    const owner = await newOwner();
    const { agent } = await create(owner, { name: 'Precise', max_transaction_amount: 12.345678, max_daily_limit: 0 });
    expect(agent.spending_rules).toMatchObject({ max_transaction_amount_exact: '12.345678', max_daily_limit: 0 });
    const rules = await prisma.spendingRules.findUniqueOrThrow({ where: { agentId: agent.id } });
    expect(rules.maxTransactionAmount).toBe(12_345_678n);
  });

  it('stores every private key as ciphertext that decrypts to keys matching the public key and the wallet address', async () => {
    const owner = await newOwner();
    const { agent } = await create(owner, { name: 'Keys' });
    const rows = await prisma.agentKey.findMany({
      where: { agentId: agent.id },
      select: { id: true, purpose: true, publicKey: true, ciphertext: true, iv: true, tag: true },
    });
    expect(rows.map((row) => row.purpose).sort()).toEqual(['evm', 'http_signature', 'identity']);

    const identity = rows.find((row) => row.purpose === 'identity')!;
    const seed = await readAgentPrivateKey(prisma, t.deps.masterKey, agent.id, 'identity');
    expect(seed).toHaveLength(32);
    expect(Buffer.from(identity.ciphertext).equals(seed)).toBe(false);
    expect(Buffer.from(identity.ciphertext).includes(seed)).toBe(false);
    const publicJwk = createPublicKey(ed25519PrivateKeyFromSeed(seed)).export({ format: 'jwk' });
    expect(publicJwk.x).toBe(identity.publicKey);

    const evm = rows.find((row) => row.purpose === 'evm')!;
    const scalar = await readAgentPrivateKey(prisma, t.deps.masterKey, agent.id, 'evm');
    expect(Buffer.from(evm.ciphertext).includes(scalar)).toBe(false);
    expect(Buffer.from(evm.ciphertext).toString('hex')).not.toContain(scalar.toString('hex'));
    const account = privateKeyToAccount(`0x${scalar.toString('hex')}`);
    expect(account.address).toBe(agent.agent_wallets?.evm_wallet_address);
    expect(account.publicKey).toBe(evm.publicKey);

    // The ciphertext is bound to its row: moved onto the other key's row it no longer decrypts.
    const secret = { ciphertext: Buffer.from(evm.ciphertext), iv: Buffer.from(evm.iv), tag: Buffer.from(evm.tag) };
    expect(() => decryptSecret(t.deps.masterKey, secret, agentKeyBinding(identity.id))).toThrow();

    // The request-signing key is its own Ed25519 key, not the identity key the credential binds.
    const signing = rows.find((row) => row.purpose === 'http_signature')!;
    const signingSeed = await readAgentPrivateKey(prisma, t.deps.masterKey, agent.id, 'http_signature');
    expect(Buffer.from(signing.ciphertext).includes(signingSeed)).toBe(false);
    expect(createPublicKey(ed25519PrivateKeyFromSeed(signingSeed)).export({ format: 'jwk' }).x).toBe(signing.publicKey);
    expect(signing.publicKey).not.toBe(identity.publicKey);
  });
});

describe('agent API keys', () => {
  it('are shown once: only the SHA-256 and the prefix are stored and no read returns the key', async () => {
    const owner = await newOwner();
    const { agent, api_key } = await create(owner, { name: 'Keyed' });
    const row = await prisma.agentApiKey.findUniqueOrThrow({ where: { id: api_key.id }, select: { keyHash: true, prefix: true } });
    expect(row.keyHash).toBe(createHash('sha256').update(api_key.key).digest('hex'));
    expect(row.prefix).toBe(api_key.key.slice(0, 16));
    expect(api_key.prefix).toBe(row.prefix);

    const reads = JSON.stringify([await getAgent(t.deps, owner.userId, agent.id), await listAgents(t.deps, owner.userId)]);
    expect(reads).not.toContain(api_key.key);
    expect(reads).not.toContain(row.keyHash);
  });

  it('rotation revokes the old key and answers a new one once', async () => {
    const owner = await newOwner();
    const { agent, api_key } = await create(owner, { name: 'Rotating' });
    expect((await authenticateAgent(t.deps, agentCredentials(agent.did, api_key.key))).agentId).toBe(agent.id);

    const response = await trpcMutation('agents.rotateApiKey', { agent_id: agent.id }, owner.token);
    expect(response.statusCode).toBe(200);
    const rotated = response.json().result.data.api_key;
    expect(rotated.key).toMatch(AGENT_KEY_PATTERN);
    expect(rotated.key).not.toBe(api_key.key);

    expect(await errorOf(authenticateAgent(t.deps, agentCredentials(agent.did, api_key.key)))).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect((await authenticateAgent(t.deps, agentCredentials(agent.did, rotated.key))).apiKeyId).toBe(rotated.id);
    const old = await prisma.agentApiKey.findUniqueOrThrow({ where: { id: api_key.id }, select: { revokedAt: true } });
    expect(old.revokedAt).not.toBeNull();
  });
});

describe('authenticateAgent', () => {
  it('answers the agent for its DID and its own key', async () => {
    const owner = await newOwner();
    const { agent, api_key } = await create(owner, { name: 'Caller' });
    expect(await authenticateAgent(t.deps, agentCredentials(agent.did, api_key.key))).toEqual({
      agentId: agent.id,
      did: agent.did,
      ownerId: owner.userId,
      apiKeyId: api_key.id,
      kyaTier: 'basic',
    });
  });

  it('is 401 without a DID, without a bearer key, with a wrong key, an unknown DID or the key of another agent', async () => {
    const owner = await newOwner();
    const first = await create(owner, { name: 'First' });
    const second = await create(owner, { name: 'Second' });
    const wrongKey = `${first.api_key.key.slice(0, -4)}AAAA`;
    const cases = [
      { authorization: `Bearer ${first.api_key.key}` },
      { did: first.agent.did },
      { did: first.agent.did, authorization: first.api_key.key },
      { did: first.agent.did, authorization: `Bearer ${wrongKey}` },
      { did: formatAgentDid(randomUUID()), authorization: `Bearer ${first.api_key.key}` },
      { did: first.agent.did, authorization: `Bearer ${second.api_key.key}` },
      { did: [first.agent.did, first.agent.did], authorization: `Bearer ${first.api_key.key}` },
    ];
    for (const credentials of cases) {
      expect(await errorOf(authenticateAgent(t.deps, credentials)), JSON.stringify(credentials)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    }
  });

  it('is 403 AGENT_SUSPENDED for a suspended agent, works again once reactivated, and is 403 once deleted', async () => {
    const owner = await newOwner();
    const { agent, api_key } = await create(owner, { name: 'Paused' });
    const credentials = agentCredentials(agent.did, api_key.key);

    await suspendAgent(t.deps, owner.userId, agent.id);
    expect(await errorOf(authenticateAgent(t.deps, credentials))).toEqual({ status: 403, code: 'AGENT_SUSPENDED', message: 'This agent is suspended' });

    await reactivateAgent(t.deps, owner.userId, agent.id);
    expect((await authenticateAgent(t.deps, credentials)).agentId).toBe(agent.id);

    await deleteAgent(t.deps, owner.userId, agent.id);
    expect(await errorOf(authenticateAgent(t.deps, credentials))).toEqual({
      status: 403,
      code: 'AGENT_SUSPENDED',
      message: 'This agent has been deleted',
    });
  });
});

describe('owner isolation', () => {
  it("gives a second owner 404 'Agent not found' from every agent service on the first owner's agent and an empty list", async () => {
    const first = await newOwner('First Owner');
    const second = await newOwner('Second Owner');
    const { agent, api_key } = await create(first, { name: 'Private' });
    const rules = updateSpendingRulesInput.parse({ agent_id: agent.id, max_daily_limit: 1 });

    const attempts: [string, () => Promise<unknown>][] = [
      ['getAgent', () => getAgent(t.deps, second.userId, agent.id)],
      ['updateSpendingRules', () => updateSpendingRules(t.deps, second.userId, rules)],
      ['suspendAgent', () => suspendAgent(t.deps, second.userId, agent.id)],
      ['reactivateAgent', () => reactivateAgent(t.deps, second.userId, agent.id)],
      ['deleteAgent', () => deleteAgent(t.deps, second.userId, agent.id)],
      ['rotateAgentApiKey', () => rotateAgentApiKey(t.deps, second.userId, agent.id)],
      ['listAgentTransactions', () => listAgentTransactions(t.deps, second.userId, agent.id)],
    ];
    for (const [name, attempt] of attempts) {
      expect(await errorOf(attempt()), name).toEqual({ status: 404, code: 'NOT_FOUND', message: 'Agent not found' });
    }
    expect(await listAgents(t.deps, second.userId)).toEqual([]);

    // Nothing the second owner tried changed the agent.
    const after = await getAgent(t.deps, first.userId, agent.id);
    expect(after.status).toBe('active');
    expect(after.spending_rules?.max_daily_limit).toBe(1000);
    expect((await authenticateAgent(t.deps, agentCredentials(agent.did, api_key.key))).agentId).toBe(agent.id);
  });

  it("gives a second owner 404 from every tRPC agent procedure on the first owner's agent and an empty list", async () => {
    const first = await newOwner('First Owner');
    const second = await newOwner('Second Owner');
    const { agent } = await create(first, { name: 'Private' });
    const id = { agent_id: agent.id };

    const responses: [string, LightMyRequestResponse][] = [
      ['get', await trpcQuery('agents.get', id, second.token)],
      ['transactions', await trpcQuery('agents.transactions', id, second.token)],
      ['updateSpendingRules', await trpcMutation('agents.updateSpendingRules', { ...id, max_daily_limit: 1 }, second.token)],
      ['suspend', await trpcMutation('agents.suspend', id, second.token)],
      ['reactivate', await trpcMutation('agents.reactivate', id, second.token)],
      ['delete', await trpcMutation('agents.delete', id, second.token)],
      ['rotateApiKey', await trpcMutation('agents.rotateApiKey', id, second.token)],
    ];
    for (const [name, response] of responses) {
      expect(response.statusCode, name).toBe(404);
      expect(trpcError(response), name).toMatchObject({ message: 'Agent not found', data: { code: 'NOT_FOUND', appCode: 'NOT_FOUND' } });
    }
    const list = await trpcQuery('agents.list', undefined, second.token);
    expect(list.json().result.data).toEqual([]);
    expect((await getAgent(t.deps, first.userId, agent.id)).status).toBe('active');
  });

  it('answers 404 for an agent id that does not exist or is not a UUID, and 401 when signed out', async () => {
    const owner = await newOwner();
    expect(await errorOf(getAgent(t.deps, owner.userId, randomUUID()))).toMatchObject({ status: 404 });
    expect(await errorOf(suspendAgent(t.deps, owner.userId, 'not-a-uuid'))).toMatchObject({ status: 404 });
    expect((await trpcQuery('agents.list', undefined)).statusCode).toBe(401);
    expect((await trpcMutation('agents.create', { name: 'Nobody' })).statusCode).toBe(401);
  });
});

describe('agent status and reads', () => {
  it('lists the owner agents newest first with nested wallet and spending rules', async () => {
    const owner = await newOwner();
    const older = await create(owner, { name: 'Older' });
    const newer = await create(owner, { name: 'Newer', max_daily_limit: '250.5' });
    const response = await trpcQuery('agents.list', undefined, owner.token);
    const list = response.json().result.data;
    expect(list.map((agent: { id: string }) => agent.id)).toEqual([newer.agent.id, older.agent.id]);
    expect(list[0].spending_rules.max_daily_limit).toBe(250.5);
    expect(list[0].agent_wallets.id).toBe(newer.agent.agent_wallets?.id);
    expect((await trpcQuery('agents.get', { agent_id: older.agent.id }, owner.token)).json().result.data).toEqual(list[1]);
  });

  it('suspends, reactivates and deletes; a deleted agent leaves its owner list and reads, and its keys are revoked', async () => {
    const owner = await newOwner();
    const { agent } = await create(owner, { name: 'Lifecycle' });

    expect((await trpcMutation('agents.suspend', { agent_id: agent.id }, owner.token)).json().result.data.status).toBe('suspended');
    expect((await suspendAgent(t.deps, owner.userId, agent.id)).status).toBe('suspended');
    expect((await trpcMutation('agents.reactivate', { agent_id: agent.id }, owner.token)).json().result.data.status).toBe('active');

    const deleted = await trpcMutation('agents.delete', { agent_id: agent.id }, owner.token);
    expect(deleted.json().result.data).toEqual({ id: agent.id, did: agent.did, status: 'deleted' });
    expect(await listAgents(t.deps, owner.userId)).toEqual([]);
    expect(await errorOf(getAgent(t.deps, owner.userId, agent.id))).toMatchObject({ status: 404 });
    expect(await errorOf(deleteAgent(t.deps, owner.userId, agent.id))).toMatchObject({ status: 404 });
    const keys = await prisma.agentKey.findMany({ where: { agentId: agent.id }, select: { revokedAt: true } });
    const apiKeys = await prisma.agentApiKey.findMany({ where: { agentId: agent.id }, select: { revokedAt: true } });
    expect([...keys, ...apiKeys].every((key) => key.revokedAt !== null)).toBe(true);
  });

  it('updates spending rules and re-issues the credential that states them', async () => {
    const owner = await newOwner();
    const { agent } = await create(owner, { name: 'Limits' });
    const response = await trpcMutation(
      'agents.updateSpendingRules',
      { agent_id: agent.id, max_transaction_amount: '5.000001', approval_threshold: 2 },
      owner.token,
    );
    expect(response.statusCode).toBe(200);
    const updated = response.json().result.data;
    expect(updated.spending_rules).toMatchObject({
      max_transaction_amount: 5.000001,
      max_transaction_amount_exact: '5.000001',
      max_daily_limit: 1000,
      approval_threshold: 2,
    });
    expect(updated.verifiable_credential.credential).not.toBe(agent.verifiable_credential?.credential);
    expect(updated.verifiable_credential.claims.spending_rules).toEqual({ currency: 'USD', max_transaction_amount: '5.000001', max_daily_limit: '1000' });

    const bad = await trpcMutation('agents.updateSpendingRules', { agent_id: agent.id, max_daily_limit: -1 }, owner.token);
    expect(bad.statusCode).toBe(400);
    expect(trpcError(bad).message).toContain('Max daily limit must not be negative');
  });

  it('lists agent transactions newest first with full-precision amounts', async () => {
    const owner = await newOwner();
    const { agent } = await create(owner, { name: 'Spender' });
    const base = Date.now();
    for (const [offset, amount, type] of [
      [0, 1n, 'deposit'],
      [2_000, 2_500_000n, 'mcp_payment'],
      [1_000, 10_000n, 'transfer'],
    ] as const) {
      await prisma.agentTransaction.create({
        data: { agentId: agent.id, type, amount, currency: 'USDC', status: 'completed', metadata: { request_id: type }, createdAt: new Date(base + offset) },
      });
    }
    const rows = await listAgentTransactions(t.deps, owner.userId, agent.id);
    expect(rows.map((row) => row.type)).toEqual(['mcp_payment', 'transfer', 'deposit']);
    expect(rows[2]).toMatchObject({ amount: 0.000001, amount_exact: '0.000001', currency: 'USDC', metadata: { request_id: 'deposit' } });
    expect(await listAgentTransactions(t.deps, owner.userId, agent.id, { limit: 1 })).toHaveLength(1);
    const viaTrpc = await trpcQuery('agents.transactions', { agent_id: agent.id }, owner.token);
    expect(viaTrpc.json().result.data).toEqual(rows);
  });
});

describe('the configured network for the connect page', () => {
  it('answers chain.network to a signed-in owner and refuses a signed-out caller', async () => {
    const owner = await newOwner();
    const response = await trpcQuery('chain.network', undefined, owner.token);
    expect(response.statusCode).toBe(200);
    // The test app's chain (chainNotInThisTest): Base Sepolia's id, said to be the sandbox, no links.
    expect(response.json().result.data).toEqual({
      network: 'eip155:84532',
      name: 'No chain in this test',
      chain_id: 84532,
      sandbox: true,
      usdc_address: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
      explorer_url: null,
      faucet_url: null,
    });

    const signedOut = await trpcQuery('chain.network', undefined);
    expect(signedOut.statusCode).toBe(401);
    expect(trpcError(signedOut).data).toMatchObject({ code: 'UNAUTHORIZED', appCode: 'UNAUTHORIZED' });
  });
});
