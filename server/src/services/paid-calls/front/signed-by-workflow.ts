/**
 * The workflow's path to a payment header: the intent is created and its workflow authorises and
 * signs (a channel, a replayed key, an `upto` the request could not sign); the call waits, bounded,
 * until the header is there, the payment refused, or waiting for the owner.
 */
import type { AuthenticatedAgent } from '../../agents/authenticate-agent';
import { isAnswerable, PAYMENT_WAIT_MS } from '../../agent-api/intent-outcome';
import { awaitIntent } from '../../intents/await-intent';
import { agentCreator, createIntent } from '../../intents/create-intent';
import type { PaidInRequest } from './pay-in-request';
import type { X402Deps } from './x402-deps';

export async function signedByWorkflow(deps: X402Deps, agent: AuthenticatedAgent, intentInput: Parameters<typeof createIntent>[2], options: { idempotencyKey?: string; waitMs?: number }) {
  const created = await createIntent(deps, agentCreator(agent), intentInput, { idempotencyKey: options.idempotencyKey });
  return { ...(await signedByItsWorkflow(deps, agent, created.response.id, options.waitMs)), replayed: created.replayed };
}

/**
 * A payment held in this request. One it held but could not sign (an `upto` whose Permit2
 * allowance could not be raised: the chain unreachable) is signed by its workflow, started now.
 */
export async function signedInRequest(deps: X402Deps, agent: AuthenticatedAgent, paid: PaidInRequest, options: { waitMs?: number }) {
  if (paid.operation !== null || paid.intent.status !== 'processing') return { ...paid, replayed: false };
  await paid.startWorkflow();
  return { ...(await signedByItsWorkflow(deps, agent, paid.intent.id, options.waitMs)), replayed: false };
}

/** Waits (bounded) until the intent's workflow has signed its header, refused it, or waits for the owner. */
async function signedByItsWorkflow(deps: X402Deps, agent: AuthenticatedAgent, intentId: string, waitMs = PAYMENT_WAIT_MS) {
  const operationOf = () => deps.db.prisma.railOperation.findUnique({ where: { paymentIntentId: intentId }, select: { status: true, details: true, declineMessage: true } });
  const { intent } = await awaitIntent(
    deps.db.prisma,
    agent.ownerId,
    intentId,
    async (current) => isAnswerable(current) || (current.status === 'processing' && (await operationOf()) !== null),
    waitMs,
    // The operation's row announces its intent (migration rail_operation_notify).
    { events: deps.events },
  );
  return { intent, operation: await operationOf(), signedHere: false };
}
