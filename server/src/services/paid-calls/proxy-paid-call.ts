/**
 * /x402/proxy: calls the upstream with a payment header signed by /x402/sign-payment for this
 * agent (or by this very request: `known`, found and checked already). A header is used once:
 * one the seller already redeemed, or one that expired, is refused before the seller sees it.
 *
 * After the seller answers: a payment the seller says it settled is confirmed by reading the
 * transaction it named (front/confirm-settlement.ts; for `upto` also how much it moved, which the
 * capture takes), and the agent has its answer at once, the payment `processing` until the
 * workflow, told now, captures it. One the chain does not confirm stays as it is; the workflow
 * follows it on chain. A channel's settlement is not in one transaction a seller can name: it is
 * waited for (bounded) until the workflow has settled it in the ledger.
 */
import type { IntentStatus, PaymentProtocol, X402ProxyInput, X402UpstreamResponseView } from '@purser/core';
import { countX402Payment } from '../../metrics/metrics';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import { isAnswerable } from '../agent-api/intent-outcome';
import { awaitIntent } from '../intents/await-intent';
import { getIntent } from '../intents/get-intent';
import { signalPaymentWorkflow } from '../intents/payment-workflows';
import { callUpstream, requestSignerFor, upstreamView } from './front/call-upstream';
import type { AgentRequestSigner } from '../identity/sign-agent-request';
import { intentTerms, signedHeaderOf, type KnownHeader } from './front/checked-header';
import { confirmSettlement } from './front/confirm-settlement';
import { keepMppReceipt, keepSellerReceipt, keepSellerResponse } from './front/kept-answers';
import { checkSellerReceipt, receiptInPaymentResponse, type SellerReceipt } from './front/seller-receipts';
import { schemeContext, type X402Deps } from './front/x402-deps';
import { isPayableScheme } from '@purser/core';
import { schemeFor } from './schemes/lookup';
import { x402MetadataOf } from './x402/intent-metadata';
import { readPaymentReceipt, type MppReceipt } from './mpp/payment-receipt';
import { decodePaymentHeader, headerNameOf, paymentPayer } from './x402/payment-header';
import { readPaymentResponse, type PaymentResponseInfo } from './x402/payment-response';

/**
 * The seller's word that it settled, in each protocol's wire: x402's PAYMENT-RESPONSE, or MPP's
 * Payment-Receipt (its `reference` the transaction). Either is checked on chain before it counts.
 */
const settlementReports: Record<PaymentProtocol, (headers: Record<string, string>) => (PaymentResponseInfo & { mppReceipt?: MppReceipt }) | null> = {
  x402: readPaymentResponse,
  mpp: (headers) => {
    const receipt = readPaymentReceipt(headers);
    return receipt && { success: receipt.status === 'success', transaction: receipt.reference, raw: receipt, mppReceipt: receipt };
  },
};

/** The headers without any by `name` (any case): the one Purser signed replaces what the agent sent. */
function withoutHeader(headers: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== name.toLowerCase()));
}

/** How long a proxied call waits for the seller's settlement to reach the ledger. */
const SETTLEMENT_WAIT_MS = 15_000;

export async function proxyX402Request(
  deps: X402Deps,
  agent: AuthenticatedAgent,
  input: X402ProxyInput,
  known: KnownHeader | null = null,
  /** The signer of the call's first request (/x402/fetch), so both carry the same key. */
  signer?: AgentRequestSigner | null,
): Promise<X402UpstreamResponseView> {
  const identity = { signer: signer === undefined ? await requestSignerFor(deps, agent) : signer };
  if (!input.payment_header) {
    return upstreamView(await callUpstream(deps, input, { ...identity, tag: 'web-bot-auth' }), null);
  }
  const decoded = decodePaymentHeader(input.payment_header);
  const { intentId, details } = known ?? (await signedHeaderOf(deps, agent, input.payment_header, decoded));
  const { protocol } = decoded;
  const headers = { ...withoutHeader(input.headers, headerNameOf(decoded)), [headerNameOf(decoded)]: input.payment_header };
  let response;
  try {
    response = await callUpstream(deps, { ...input, headers }, { ...identity, tag: 'agent-payer-auth' });
  } finally {
    // Signed in this request: its workflow starts once the seller has answered (or failed to).
    void known?.startWorkflow?.();
  }
  const answer = upstreamView(response, null);
  const paid = settlementReports[protocol](response.headers);
  const tellWorkflow = () => signalPaymentWorkflow(deps.temporal, intentId, 'railUpdated', (error) => deps.logger.warn({ err: error, intentId }, 'could not signal the payment workflow'));
  const settledInOneTransaction = isPayableScheme(details.scheme) && !schemeFor(details.scheme).channel;
  let status: IntentStatus;
  if (paid?.success === true && settledInOneTransaction) {
    const confirmed = paid.transaction ? await confirmSettlement(schemeContext(deps), intentId, paid.transaction) : null;
    // Confirmed or not, the workflow looks now; the agent does not wait for its capture. A
    // workflow this request has just started looks at the rail in its first task anyway, and
    // is not signalled: a signal arriving while that one task completes the whole payment
    // makes Temporal refuse the completion and run the task again from its start, when the
    // front finds the payment settled and the workflow reports its steps as skipped.
    if (!known?.startWorkflow) void tellWorkflow();
    status = confirmed ? 'processing' : (await getIntent(deps.db.prisma, agent.ownerId, intentId)).status;
  } else if (paid?.success === true) {
    await tellWorkflow();
    ({
      intent: { status },
    } = await awaitIntent(deps.db.prisma, agent.ownerId, intentId, isAnswerable, SETTLEMENT_WAIT_MS, { events: deps.events }));
  } else {
    status = (await getIntent(deps.db.prisma, agent.ownerId, intentId)).status;
  }
  // The request's signature and the seller's answer, kept in one statement with the operation.
  const hash = await keepSellerResponse(deps.db.prisma, intentId, paid?.success === true ? answer : null, response.requestSignature ?? null);
  countX402Payment(details.scheme, protocol, paid?.success !== true ? 'unsettled' : hash ? 'settled_confirmed' : 'settled_pending');
  const sellerReceipt = await checkedSellerReceipt(deps, intentId, answer.payment_response, { payer: paymentPayer(decoded), url: input.url, transaction: hash });
  const mppReceipt = paid?.mppReceipt ? await keepMppReceipt(deps.db.prisma, intentId, { ...paid.mppReceipt, confirmed: hash !== null && hash.toLowerCase() === paid.mppReceipt.reference.toLowerCase() }) : null;
  return {
    ...answer,
    payment: { intent_id: intentId, status, transaction_hash: hash, protocol },
    seller_receipt: sellerReceipt,
    ...(protocol === 'mpp' ? { mpp_receipt: mppReceipt } : {}),
  };
}

/**
 * The seller's signed receipt in its answer, checked against the payment (front/seller-receipts.ts)
 * and kept with the settled rail operation (after the workflow wrote its details, as the kept
 * answer is); null when the seller sent none.
 */
async function checkedSellerReceipt(
  deps: X402Deps,
  intentId: string,
  paymentResponse: unknown,
  paid: { payer: string; url: string; transaction: string | null },
): Promise<SellerReceipt | null> {
  const receipt = receiptInPaymentResponse(paymentResponse);
  if (!receipt) return null;
  const x402 = x402MetadataOf((await intentTerms(deps, intentId)).metadata);
  const checked = await checkSellerReceipt(receipt, {
    payer: paid.payer,
    network: deps.chain.info.network,
    resourceUrl: x402?.resource?.url ?? paid.url,
    transaction: paid.transaction,
    offerSigner: x402?.offer_signer ?? null,
  });
  await keepSellerReceipt(deps.db.prisma, intentId, checked);
  return checked;
}
