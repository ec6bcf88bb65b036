/**
 * request_budget while the owner decides, in each protocol era's way:
 *
 * - MCP 2026-07-28 (multi round-trip requests): a client that takes URL-mode elicitation gets
 *   `input_required` asking its person to open the one-time approval link; its retry (the same
 *   call, with the elicitation's answer and our signed `requestState`) waits a while for the
 *   owner and answers the decided session, or asks the client to retry again without asking the
 *   person anything, for a few rounds; then it answers the request as it stands (get_budget polls
 *   on). A person who declines to open the link gets the waiting request at once.
 * - MCP 2025-11-25: a client that sends `task` gets a task (the session) to poll
 *   (services/agent-api/mcp-budget-task.ts).
 * - Any other client: the waiting request with its approval_url, to hand its person.
 *
 * The retry creates nothing: the session comes from `requestState`, which is HMAC-signed
 * (the SDK's codec, its key derived from the master key), bound to the agent and short-lived, so
 * a client can neither forge one nor replay another agent's.
 */
import { hkdfSync } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  type CallToolResult,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { PaymentSessionView } from '@purser/core';
import { awaitBudgetDecision } from '../../services/agent-api/mcp-budget-task';
import type { AuthenticatedAgent } from '../../services/agents/authenticate-agent';
import type { AppDeps } from '../../deps';

/** What a round hands the next: the request, and how many rounds it has waited. */
export interface BudgetRound {
  sessionId: string;
  round: number;
}

/** Under the HTTP request's usual wait (make_payment waits 30 s). */
const ROUND_WAIT_MS = 20_000;
/** About two minutes of waiting on the person before get_budget takes over. */
const MAX_ROUNDS = 6;
/** A state older than this is refused: the client asks again (a new request) or polls get_budget. */
const STATE_TTL_SECONDS = 15 * 60;
const APPROVE_KEY = 'approve';

const keys = new WeakMap<Buffer, Buffer>();

/** The requestState codec of one agent's rounds; its key is derived once per master key. */
export function budgetRoundCodec(masterKey: Buffer, agentId: string): RequestStateCodec<BudgetRound> {
  let key = keys.get(masterKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'purser mcp request state v1', 32));
    keys.set(masterKey, key);
  }
  return createRequestStateCodec<BudgetRound>({ key, ttlSeconds: STATE_TTL_SECONDS, bind: () => agentId });
}

/** Whether a 2026-07-28 client can be asked to open a URL (URL-mode elicitation). */
export function clientOpensUrls(ctx: ServerContext): boolean {
  const capabilities = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
    | { elicitation?: { url?: unknown } }
    | undefined;
  return capabilities?.elicitation?.url !== undefined;
}

/** The first round's answer: ask the person to open the approval link, and come back. */
export async function askOwnerToDecide(
  codec: RequestStateCodec<BudgetRound>,
  session: PaymentSessionView & { approvalUrl: string },
  ctx: ServerContext,
): Promise<CallToolResult> {
  const result = inputRequired({
    inputRequests: {
      [APPROVE_KEY]: inputRequired.elicitUrl({
        message: `Your agent asks for a budget of ${session.totalExact} USDC until ${session.expiresAt}${session.reason ? ` to ${session.reason}` : ''}. Open the link, signed in to Purser, to approve, lower or reject it.`,
        url: session.approvalUrl,
      }),
    },
    requestState: await codec.mint({ sessionId: session.id, round: 1 }, ctx),
  });
  // The SDK types tools/call answers as CallToolResult; it sends a 2026 input_required as it is.
  return result as unknown as CallToolResult;
}

/**
 * A retry: the decided session, or another round (no question to the person) while it waits, or
 * the waiting request once the rounds are spent or the person declined to open the link.
 */
export async function continueBudgetRound(
  deps: Pick<AppDeps, 'db' | 'events'>,
  agent: AuthenticatedAgent,
  codec: RequestStateCodec<BudgetRound>,
  state: BudgetRound,
  ctx: ServerContext,
): Promise<{ session: PaymentSessionView } | { retry: CallToolResult }> {
  const answer = ctx.mcpReq.inputResponses?.[APPROVE_KEY] as { action?: unknown } | undefined;
  const declined = answer !== undefined && answer.action !== 'accept';
  const session = await awaitBudgetDecision(deps, agent, state.sessionId, declined ? 0 : ROUND_WAIT_MS, ctx.mcpReq.signal);
  if (session.status !== 'requested' || declined || state.round >= MAX_ROUNDS) return { session };
  const retry = inputRequired({ requestState: await codec.mint({ sessionId: session.id, round: state.round + 1 }, ctx) });
  return { retry: retry as unknown as CallToolResult };
}

/** A verified state's payload, or undefined when the call carried none (a first round). */
export function budgetRoundOf(ctx: ServerContext): BudgetRound | undefined {
  const state = ctx.mcpReq.requestState<BudgetRound>();
  return typeof state === 'object' && state !== null && typeof state.sessionId === 'string' && Number.isInteger(state.round) ? state : undefined;
}
