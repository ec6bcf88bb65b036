/**
 * A paid call through a channel (schemes/batch-settlement/): one deposit, held once like any
 * payment, then one voucher per call. When Purser opens a channel on its own (/x402/fetch): only
 * when the seller offers a channel and nothing else on our network, or when the agent already has
 * an open channel to that seller (same payee, seller key, terms and network) with room for the
 * call. The calls through one channel are signed and sent one at a time in this process (the
 * seller takes a channel's vouchers only in order); the channel's row lock keeps two processes
 * from signing the same cumulative. Each voucher is gated in its transaction by the rules of the
 * moment (gate-voucher.ts). The seller's call is outside the transaction: a slow seller
 * holds no database connection. A voucher that was sent is recorded even when the seller's answer
 * fails: it can be claimed either way.
 */
import { AppError, toDecimalString, type X402FetchInput, type X402SignedPaymentView } from '@purser/core';
import type { PaymentPayload } from '@x402/core/types';
import { oneAtATimeBy } from '../../../one-at-a-time';
import type { AuthenticatedAgent } from '../../agents/authenticate-agent';
import { findOpenChannel } from '../schemes/batch-settlement/find-open-channel';
import { alreadyPaid, recordChannelVoucher } from '../schemes/batch-settlement/voucher';
import { isPayableScheme } from '@purser/core';
import { schemeFor } from '../schemes/lookup';
import type { PricedRequirement } from '../schemes/payment-scheme';
import { paymentHeaderName } from '../x402/payment-header';
import type { PaymentRequiredInfo } from '../x402/payment-required';
import { callUpstream, signedCall, upstreamView } from './call-upstream';
import { keepRequestSignature } from './kept-answers';
import type { AgentRequestSigner } from '../../identity/sign-agent-request';
import { gateVoucher } from './gate-voucher';
import { priceFor } from './price-requirement';
import { schemeContext, type FetchOutcome, type X402Deps } from './x402-deps';

/**
 * The seller's channel requirement that an open channel of the agent can pay, if any: an open
 * channel is used before anything else the seller offers.
 */
export async function channelToReuse(deps: X402Deps, agent: AuthenticatedAgent, info: PaymentRequiredInfo): Promise<{ requirement: Record<string, unknown> } | null> {
  for (const requirement of info.accepts) {
    if (!isPayableScheme(requirement.scheme) || !schemeFor(requirement.scheme).channel) continue;
    let priced: PricedRequirement;
    try {
      priced = priceFor(deps, requirement as unknown as Record<string, unknown>, info.x402Version);
    } catch {
      continue;
    }
    if (await findOpenChannel(deps.db.prisma, agent.agentId, priced)) return { requirement: requirement as unknown as Record<string, unknown> };
  }
  return null;
}

/**
 * The call's `max_amount` bounds everything that leaves the agent's balance for it: a channel it
 * would open holds the whole deposit, so a deposit above it is refused before an intent exists.
 * Through an open channel the call adds only its price (checked in fetch-paid.ts).
 */
function assertDepositWithinMaxAmount(input: X402FetchInput, deposit: bigint): void {
  if (input.max_amount === undefined || deposit <= input.max_amount) return;
  throw new AppError(
    'POLICY_VIOLATION',
    `The seller's channel needs a deposit of ${toDecimalString(deposit)} USDC, more than max_amount ${toDecimalString(input.max_amount)} USDC; no channel was opened and nothing was held or signed`,
  );
}

/**
 * The per-transaction limit a channel's deposit must fit: the deposit is one payment, so the
 * seller's minimum above it is refused here, before an intent exists, with the reason. The
 * payment's gate then judges the deposit, as the intent's amount, against every rule.
 */
async function assertDepositWithinLimit(deps: X402Deps, agentId: string, deposit: bigint): Promise<void> {
  const rules = await deps.db.prisma.spendingRules.findUnique({ where: { agentId }, select: { maxTransactionAmount: true } });
  if (rules && deposit > rules.maxTransactionAmount) {
    throw new AppError(
      'POLICY_VIOLATION',
      `The seller's channel needs a deposit of ${toDecimalString(deposit)} USDC, above the agent's per-transaction limit of ${toDecimalString(rules.maxTransactionAmount)} USDC; no channel was opened and nothing was held or signed`,
    );
  }
}

export interface ChannelCall {
  input: X402FetchInput;
  /** The call's Idempotency-Key (header or body): a call repeated with it signs no second voucher. */
  idempotencyKey?: string;
  info: PaymentRequiredInfo;
  requirement: Record<string, unknown>;
  priced: PricedRequirement;
  /** Signs the paid request as the agent (the signer of the call's first request); null when its owner signs none. */
  signer: AgentRequestSigner | null;
  /** Opens a channel: the payment intent of the deposit, answered once it is held or waits. */
  open: () => Promise<X402SignedPaymentView>;
}

/** Per channel, one call at a time in this process. */
const oneChannelCallAtATime = oneAtATimeBy<string>();

/**
 * Pays one call through the agent's open channel to this seller, opening one first when there is
 * none with room: signs the voucher, records it, and calls the seller with it.
 */
export async function payThroughChannel(deps: X402Deps, agent: AuthenticatedAgent, call: ChannelCall): Promise<FetchOutcome> {
  const { priced, input } = call;
  await assertNotPaidYet(deps, agent.agentId, call.idempotencyKey);
  let channel = await findOpenChannel(deps.db.prisma, agent.agentId, priced);
  const opening = !channel;
  if (!channel) {
    assertDepositWithinMaxAmount(input, priced.amount);
    await assertDepositWithinLimit(deps, agent.agentId, priced.amount);
    const opened = await call.open();
    if (opened.status !== 'processing') return { kind: 'waiting', view: opened };
    const operation = await deps.db.prisma.railOperation.findUnique({ where: { paymentIntentId: opened.intent_id }, select: { id: true, status: true } });
    if (!operation || operation.status !== 'pending') return { kind: 'waiting', view: opened };
    channel = { intentId: opened.intent_id, operationId: operation.id };
  }
  const open = channel;
  // Signed as the agent before the voucher: a host the owner's policies refuse gets nothing signed.
  const { request: paidRequest, requestSignature } = await signedCall(input, { signer: call.signer, tag: 'agent-payer-auth' });
  // The channel's payment keeps the signature of the call that opened it: one write per channel, not per voucher.
  if (requestSignature && opening) await keepRequestSignature(deps.db.prisma, open.intentId, requestSignature);
  const domain = await deps.chain.usdcDomain();
  const { response, voucher } = await oneChannelCallAtATime(open.operationId, async () => {
    const signed = await recordChannelVoucher(schemeContext(deps), domain, {
      agentId: agent.agentId,
      channel: open,
      requirement: call.requirement,
      priced,
      resource: call.info.resource?.url ?? input.url,
      ...(call.info.resource ? { paymentResource: call.info.resource as PaymentPayload['resource'] } : {}),
      ...(call.idempotencyKey !== undefined ? { idempotencyKey: call.idempotencyKey } : {}),
      gate: (tx) =>
        gateVoucher(tx, {
          agentId: agent.agentId,
          intentId: open.intentId,
          price: priced.channel!.price,
          merchant: new URL(input.url).host,
          ...(input.category !== undefined ? { category: input.category } : {}),
        }),
    });
    const answer = await callUpstream(deps, { ...paidRequest, headers: { ...paidRequest.headers, [paymentHeaderName(2)]: signed.header } });
    return { response: answer, voucher: signed.voucher };
  });
  return {
    kind: 'response',
    view: {
      ...upstreamView(response, { intent_id: open.intentId, status: 'processing', transaction_hash: null, protocol: 'x402' }),
      channel_voucher: voucher,
    },
  };
}

/**
 * A call through a channel repeated with its Idempotency-Key (a client retrying after a lost
 * answer) is not paid again. The seller's answer to the first is not kept, so it is refused.
 */
async function assertNotPaidYet(deps: X402Deps, agentId: string, idempotencyKey: string | undefined): Promise<void> {
  if (idempotencyKey === undefined) return;
  const paid = await deps.db.prisma.channelVoucher.findUnique({
    where: { agentId_idempotencyKey: { agentId, idempotencyKey } },
    select: { paymentIntentId: true, cumulative: true },
  });
  if (paid) throw alreadyPaid(paid.paymentIntentId);
}
