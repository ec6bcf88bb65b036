/**
 * What the assistant may do for a signed-in owner: list their agents, and create or fund an
 * agent once the owner confirms. Listing runs at once; the other two only become a proposal
 * (validated with the same contracts and ownership check as the dashboard, ending with a
 * confirmation token) and run when a later "yes" brings the token back, through the same
 * services as the dashboard with the token's nonce as their idempotency key.
 */
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import { z } from 'zod';
import {
  createAgentInput,
  firstValidationMessage,
  fundAgentInput,
  isAppError,
  toDecimalString,
  type AgentView,
  type CreateAgentInput,
  type FundAgentInput,
} from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { isAuditChainConflict } from '../audit/append-audit-event';
import { createAgentInTransaction } from '../agents/create-agent';
import { getAgent } from '../agents/get-agent';
import { listAgents } from '../agents/list-agents';
import { withIdempotency } from '../idempotency/with-idempotency';
import { fundAgentAndMirror } from '../wallets/fund-agent';
import { getOwnerWallet } from '../wallets/get-owner-wallet';
import type { AppDeps } from '../../deps';
import { CONFIRMATION_TTL_MS, confirmationLine, issueConfirmationToken, type ActionName, type ConfirmedAction } from './confirmation-token';

export type ActionDeps = Pick<AppDeps, 'db' | 'masterKey' | 'publicUrl' | 'chain' | 'logger'>;

const fundAgentArgs = fundAgentInput.omit({ idempotency_key: true });

function parametersOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return json;
}

/** The tools offered to the model for a signed-in owner; their parameters are the contracts'. */
export const OWNER_TOOLS: ChatCompletionFunctionTool[] = [
  {
    type: 'function',
    function: {
      name: 'list_agents',
      description: "List the signed-in owner's agents with their ids, status, balances and spending limits.",
      parameters: { type: 'object', properties: {}, additionalProperties: false },
    },
  },
  {
    type: 'function',
    function: {
      name: 'create_agent',
      description:
        'Prepare creating a new agent with its own wallet, DID and spending limits (dollars; defaults 100 per transaction and 1000 per day). ' +
        'Nothing is created until the owner confirms the proposal the server shows.',
      parameters: parametersOf(createAgentInput),
    },
  },
  {
    type: 'function',
    function: {
      name: 'fund_agent',
      description:
        "Prepare moving money (dollars, USDC or USDT) from the owner's wallet to one of their agents; call list_agents first for the agent id. " +
        'Nothing moves until the owner confirms the proposal the server shows.',
      parameters: parametersOf(fundAgentArgs),
    },
  },
];

/** What list_agents answers the model: enough to choose and describe an agent, no keys. */
export async function listAgentsForModel(deps: ActionDeps, ownerId: string): Promise<unknown> {
  const agents = await listAgents(deps, ownerId);
  return {
    agents: agents.map((agent) => ({
      id: agent.id,
      name: agent.name,
      description: agent.description,
      status: agent.status,
      did: agent.did,
      balance_usdc: agent.agent_wallets?.balance_usdc_exact ?? '0',
      balance_usdt: agent.agent_wallets?.balance_usdt_exact ?? '0',
      max_transaction_amount: agent.spending_rules?.max_transaction_amount_exact,
      max_daily_limit: agent.spending_rules?.max_daily_limit_exact,
      connect_page: `/dashboard/agents/${agent.id}/connect`,
    })),
  };
}

export type Proposal = { ok: true; text: string } | { ok: false; problem: string };

/**
 * Checks what the model asked for as the dashboard would (contract, ownership, status) and,
 * when it holds, writes the proposal the owner must confirm. Nothing changes here.
 */
export async function proposeAction(deps: ActionDeps, ownerId: string, action: ActionName, rawArguments: string, now: Date = new Date()): Promise<Proposal> {
  let json: unknown;
  try {
    json = rawArguments.trim() === '' ? {} : JSON.parse(rawArguments);
  } catch {
    return { ok: false, problem: 'The arguments are not valid JSON' };
  }
  if (action === 'fund_agent') {
    const parsed = fundAgentArgs.safeParse(json);
    if (!parsed.success) return { ok: false, problem: firstValidationMessage(parsed.error) };
    return proposeFunding(deps, ownerId, parsed.data, now);
  }
  const parsed = createAgentInput.safeParse(json);
  if (!parsed.success) return { ok: false, problem: firstValidationMessage(parsed.error) };
  return proposeCreation(deps, ownerId, parsed.data, now);
}

async function proposeFunding(deps: ActionDeps, ownerId: string, input: Omit<FundAgentInput, 'idempotency_key'>, now: Date): Promise<Proposal> {
  let agent: AgentView;
  try {
    agent = await getAgent(deps, ownerId, input.agent_id);
  } catch (error) {
    if (isAppError(error)) return { ok: false, problem: error.message };
    throw error;
  }
  if (agent.status !== 'active') return { ok: false, problem: `Agent ${agent.name} is ${agent.status} and cannot be funded` };
  const wallet = await getOwnerWallet(deps.db.prisma, ownerId);
  const held = input.currency === 'USDC' ? wallet?.balance_usdc_exact : wallet?.balance_usdt_exact;
  const amount = toDecimalString(input.amount);
  const token = await issueConfirmationToken(
    deps.masterKey,
    { ownerId, action: 'fund_agent', args: { agent_id: agent.id, amount, currency: input.currency } },
    now,
  );
  return {
    ok: true,
    text: [
      `**Please confirm:** send **${amount} ${input.currency}** from your wallet to your agent **${agent.name}** (\`${agent.id}\`).` +
        (held === undefined ? '' : ` Your wallet holds ${held} ${input.currency} now.`),
      '',
      confirmPrompt(),
      '',
      confirmationLine(token),
    ].join('\n'),
  };
}

async function proposeCreation(deps: ActionDeps, ownerId: string, input: CreateAgentInput, now: Date): Promise<Proposal> {
  const perTransaction = toDecimalString(input.max_transaction_amount);
  const perDay = toDecimalString(input.max_daily_limit);
  const args: Record<string, string> = { name: input.name, description: input.description, max_transaction_amount: perTransaction, max_daily_limit: perDay };
  const token = await issueConfirmationToken(deps.masterKey, { ownerId, action: 'create_agent', args }, now);
  const described = input.description === '' ? '' : ` described as “${input.description}”`;
  return {
    ok: true,
    text: [
      `**Please confirm:** create a new agent **${input.name}**${described}, with its own wallet and DID, ` +
        `limited to $${perTransaction} per transaction and $${perDay} per day.`,
      '',
      confirmPrompt(),
      '',
      confirmationLine(token),
    ].join('\n'),
  };
}

function confirmPrompt(): string {
  return `Reply **yes** to confirm or **no** to cancel. This proposal expires in ${CONFIRMATION_TTL_MS / 60_000} minutes.`;
}

/**
 * Carries out a confirmed action and says what happened. A refusal of the service (no funds,
 * a suspended agent) is an answer, not a failure: nothing changed and the owner is told why.
 */
export async function executeAction(deps: ActionDeps, confirmed: ConfirmedAction): Promise<string> {
  try {
    return confirmed.action === 'fund_agent' ? await executeFunding(deps, confirmed) : await executeCreation(deps, confirmed);
  } catch (error) {
    if (isAppError(error)) return `I could not do that: ${error.message}. Nothing was changed.`;
    throw error;
  }
}

async function executeFunding(deps: ActionDeps, confirmed: ConfirmedAction): Promise<string> {
  const input = fundAgentArgs.parse(confirmed.args);
  const result = await fundAgentAndMirror(
    deps,
    confirmed.ownerId,
    { agentId: input.agent_id, amount: input.amount, currency: input.currency },
    { idempotencyKey: idempotencyKeyOf(confirmed) },
  );
  const { wallet, agent_wallet: agentWallet } = result.response;
  const field = input.currency === 'USDC' ? 'balance_usdc_exact' : 'balance_usdt_exact';
  const balances = `Your wallet holds ${wallet[field]} ${input.currency}; the agent holds ${agentWallet[field]} ${input.currency}.`;
  if (result.replayed) return `This confirmation was already carried out, so nothing moved again. ${balances}`;
  return `Done: sent **${toDecimalString(input.amount)} ${input.currency}** to your agent. ${balances}`;
}

async function executeCreation(deps: ActionDeps, confirmed: ConfirmedAction): Promise<string> {
  const input = createAgentInput.parse(confirmed.args);
  const { response, replayed } = await createAgentOnce(deps, confirmed, input);
  const agent = response.agent;
  // The agent's API key stays out of the chat: the conversation is sent back with every
  // message (and to the model provider), so the key would leave the owner's hands.
  const lines = [
    replayed ? `This confirmation was already carried out, so no second agent was created. The agent is **${agent.name}**:` : `Done: created your agent **${agent.name}**.`,
    '',
    `- ID: \`${agent.id}\``,
    `- DID: \`${agent.did}\``,
    `- Limits: $${agent.spending_rules?.max_transaction_amount_exact ?? '?'} per transaction, $${agent.spending_rules?.max_daily_limit_exact ?? '?'} per day`,
    '',
    `Its API key is not shown in this chat. Open its [connect page](/dashboard/agents/${agent.id}/connect) and rotate the key to get one, shown once.`,
  ];
  return lines.join('\n');
}

/**
 * createAgent, at most once per confirmation: the agent and the idempotency record commit
 * together, and the record keeps the agent's public view only, never its API key.
 */
async function createAgentOnce(deps: ActionDeps, confirmed: ConfirmedAction, input: CreateAgentInput) {
  const scope = {
    principalType: 'owner' as const,
    principalId: confirmed.ownerId,
    endpoint: 'agents.create',
    key: idempotencyKeyOf(confirmed),
    request: input,
  };
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await withIdempotency(deps.db.prisma, scope, async (tx: TransactionClient) => {
        const { agent } = await createAgentInTransaction(tx, deps, confirmed.ownerId, input);
        return { agent };
      });
    } catch (error) {
      // A concurrent change of this owner took the audit chain's next slot; all rolled back.
      if (attempt >= 5 || !isAuditChainConflict(error)) throw error;
    }
  }
}

function idempotencyKeyOf(confirmed: ConfirmedAction): string {
  return `assistant:${confirmed.nonce}`;
}
