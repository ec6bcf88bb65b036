/**
 * The agent API's x402 steps (spec section 7): read a seller's requirements, sign a payment
 * for one, call the seller with it, or all three at once (`fetchWithX402`).
 *
 * Signing is a payment: `signX402Payment` creates a payment intent on the x402-base rail and
 * the payment workflow runs it, so spending rules, policies, KYA caps, approval and the
 * balance are all checked, and the funds are held, before the rail signs anything. The
 * workflow captures once the authorisation is used on chain (the seller settled it) and
 * releases the funds if it expires unused.
 */
import { AppError, toDecimalString, type IntentStatus, type X402FetchInput, type X402ProxyInput, type X402RequirementsInput, type X402RequirementsView, type X402SignedPaymentView, type X402SignPaymentInput, type X402UpstreamResponseView } from '@purser/core';
import { OFFER_RECEIPT } from '@x402/extensions/offer-receipt';
import { PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import { getAddress, type Address } from 'viem';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import { awaitIntent } from '../intents/await-intent';
import { createIntent } from '../intents/create-intent';
import { getIntent } from '../intents/get-intent';
import { signalPaymentWorkflow } from '../intents/payment-workflows';
import { isAnswerable, PAYMENT_WAIT_MS, refusalOf } from '../agent-api/intent-outcome';
import { settleFromReceipt, type X402IntentMetadata } from '../rails/x402-base-rail';
import { assertSignedAsPriced } from './x402-authorization';
import { checkSellerReceipt, offerSigner, receiptInPaymentResponse, type SellerReceipt } from './seller-receipts';
import { callUpstream, priceFor, upstreamView, type FetchOutcome, type X402Deps } from './x402-calls';
import { channelToReuse, payThroughChannel } from './x402-channels';
import { payInRequest, type PaidInRequest } from './pay-in-request';
import { countX402Payment } from '../../metrics/metrics';
import { decodePaymentHeader, paymentHeaderName, paymentPayer, paymentReference, readPaymentRequired, readPaymentResponse, recommendRequirement, type X402Version } from './x402-messages';

export type { FetchOutcome, X402Deps } from './x402-calls';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The most of a seller's payment-identifier declaration kept with a payment. */
const KEPT_EXTENSION_MAX_BYTES = 4 * 1024;

/**
 * What the intent keeps of the 402's extensions Purser answers: the payment-identifier
 * declaration as the seller made it (echoed with the payment's identifier), and who signed the
 * seller's offer (offer-receipt), which its receipt must match. Both are the same for every 402
 * of one resource, so a retried call is the same request.
 */
async function answeredExtensions(extensions: Record<string, unknown>, url: string | undefined): Promise<Pick<X402IntentMetadata, 'extensions' | 'offer_signer'>> {
  const declared = extensions[PAYMENT_IDENTIFIER];
  const keep = isObject(declared) && Buffer.byteLength(JSON.stringify(declared)) <= KEPT_EXTENSION_MAX_BYTES;
  const signer = url && isObject(extensions[OFFER_RECEIPT]) ? await offerSigner(extensions, url) : null;
  return { ...(keep ? { extensions: { [PAYMENT_IDENTIFIER]: declared } } : {}), ...(signer ? { offer_signer: signer } : {}) };
}

/**
 * The header an operation holds, decoded and checked against its intent once more before it
 * leaves Purser: to the agent (sign-payment) or to the seller (proxy).
 */
async function checkedHeader(
  deps: X402Deps,
  header: string,
  intent: { amount: bigint; toAddress: string | null; metadata: unknown },
  details: Record<string, unknown>,
): Promise<void> {
  const x402 = (intent.metadata as { x402?: X402IntentMetadata } | null)?.x402;
  if (!x402 || !intent.toAddress) throw new AppError('X402_REFUSED', 'This payment intent holds no x402 requirement; its header is not used');
  const priced = priceFor(deps, x402.requirement, x402.x402_version);
  await assertSignedAsPriced(
    header,
    {
      ...priced,
      // An `upto` intent's amount becomes what the seller settled; the header signed the maximum.
      amount: priced.scheme === 'upto' ? priced.amount : intent.amount,
      payTo: getAddress(intent.toAddress),
      from: details.payer as Address,
      latestValidBefore: BigInt(String(details.latestValidBefore ?? details.validBefore)),
    },
    await deps.chain.usdcDomain(),
  );
}

/** How long a proxied call waits for the seller's settlement to reach the ledger. */
const SETTLEMENT_WAIT_MS = 15_000;


// ---------------------------------------------------------------- requirements

export async function readX402Requirements(deps: X402Deps, input: X402RequirementsInput): Promise<X402RequirementsView> {
  const response = await callUpstream(deps, input);
  const info = readPaymentRequired(response);
  if (!info) return { url: input.url, payment_required: false, status: response.status, x402_version: null, accepts: [], recommended: null, error: null };
  return {
    url: input.url,
    payment_required: true,
    status: response.status,
    x402_version: info.x402Version,
    accepts: info.accepts as unknown as Record<string, unknown>[],
    recommended: recommendRequirement(info.accepts, info.x402Version, deps.chain.info.network, deps.chain.info.usdcAddress) as Record<string, unknown> | null,
    error: info.error ?? null,
  };
}

// ---------------------------------------------------------------- sign

export interface SignedPayment {
  view: X402SignedPaymentView;
  /** True when the header is there to use; false when the payment waits (202). */
  authorized: boolean;
  /** The idempotency key named an existing payment: this is its header again, not a new one. */
  replayed: boolean;
  /** Signed in this request (pay-in-request.ts): its operation, already checked against the intent. */
  signedHere: KnownHeader | null;
}

/** A header this request signed, its operation's details, and the start of its workflow when still to do. */
interface KnownHeader {
  intentId: string;
  details: Record<string, unknown>;
  startWorkflow?: () => Promise<boolean>;
}

export async function signX402Payment(
  deps: X402Deps,
  agent: AuthenticatedAgent,
  input: X402SignPaymentInput & { resource?: X402IntentMetadata['resource'] },
  options: { idempotencyKey?: string; waitMs?: number; urlFetched?: boolean; channel?: boolean; forwardNow?: boolean } = {},
): Promise<SignedPayment> {
  const { requirement, x402_version: version } = input;
  const { chain } = deps;
  // Priced before anything is created: a requirement Purser will not sign holds nothing.
  const priced = priceFor(deps, requirement, version);
  const { amount, payTo, scheme } = priced;
  if (scheme === 'batch-settlement' && !options.channel) {
    throw new AppError('X402_REFUSED', 'A "batch-settlement" requirement is paid through a channel by /x402/fetch, one voucher per call; no single payment header is signed for it');
  }

  const url = input.url ?? input.resource?.url ?? (typeof requirement.resource === 'string' ? requirement.resource : undefined);
  const merchant = url ? new URL(url).host : payTo;
  const x402: X402IntentMetadata = {
    x402_version: version,
    requirement: requirement as X402IntentMetadata['requirement'],
    ...(input.resource ? { resource: input.resource } : url ? { resource: { url } } : {}),
    // Host rules of merchant policies count only for a URL Purser fetched itself.
    url_fetched: options.urlFetched === true,
    ...(version === 2 && input.extensions ? await answeredExtensions(input.extensions, url) : {}),
  };
  const description = input.description ?? (typeof requirement.description === 'string' ? requirement.description : undefined) ?? input.resource?.description ?? '';
  const intentInput = {
    agentId: agent.agentId,
    amount,
    currency: 'USDC' as const,
    purpose: (description || `x402 payment to ${merchant}`).slice(0, 500),
    merchant,
    toAddress: payTo,
    category: input.category ?? 'x402',
    metadata: { url: url ?? null, network: chain.info.network, x402 },
    rail: 'x402-base' as const,
    maxRetries: 2,
    idempotencyKey: input.idempotency_key,
  };
  // `exact` and `upto` are authorised and signed in this request; channels (and replays) by the workflow.
  const inRequest = scheme === 'exact' || scheme === 'upto' ? await payInRequest(deps, agent, intentInput, priced, { idempotencyKey: options.idempotencyKey }) : null;
  const { intent, operation, replayed, signedHere } = inRequest ? await signedInRequest(deps, agent, inRequest, options) : await signedByWorkflow(deps, agent, intentInput, options);
  const intentId = intent.id;
  // Signed to be sent on at once (/x402/fetch): its workflow starts after the seller answered
  // (proxyX402Request), so its first steps do not compete with the paid call. Any other payment
  // signed here (handed out, refused, waiting for the owner) starts its workflow now.
  const details = (operation?.details ?? {}) as Record<string, unknown>;
  const header = typeof details.paymentHeader === 'string' ? details.paymentHeader : null;
  const forwardNow = options.forwardNow === true && operation?.status === 'pending' && header !== null;
  if (inRequest && !forwardNow) void inRequest.startWorkflow();
  const refusal = refusalOf(intent);
  countX402Payment(scheme, refusal ? 'refused' : operation?.status === 'declined' ? 'declined' : !header ? 'waiting' : replayed ? 'replayed' : 'signed');
  if (refusal) throw refusal;
  if (operation?.status === 'declined') throw new AppError('PAYMENT_DECLINED', `${operation.declineMessage ?? 'The payment was declined'} (payment intent ${intentId})`);

  // A header signed in this request was checked as it was signed; one read back is checked again.
  if (header && !signedHere) await checkedHeader(deps, header, await intentTerms(deps, intentId), details);
  const view: X402SignedPaymentView = {
    intent_id: intentId,
    status: intent.status,
    xPaymentHeader: header,
    x_payment_header: header,
    header_name: paymentHeaderName(version),
    x402_version: version,
    amount: intent.amount,
    amount_exact: toDecimalString(amount),
    pay_to: payTo,
    network: chain.info.network,
    valid_before: typeof details.validBefore === 'string' ? new Date(Number(details.validBefore) * 1000).toISOString() : null,
    message: header
      ? operation?.status === 'settled'
        ? 'This payment has already been redeemed by the seller.'
        : `Send it to the seller in the ${paymentHeaderName(version)} header, or call /x402/proxy with it, before valid_before.`
      : intent.status === 'pending_approval'
        ? 'The payment waits for the owner to approve it; repeat this call with the same Idempotency-Key afterwards to get the header.'
        : 'The payment is still being processed; repeat this call with the same Idempotency-Key to get the header.',
  };
  return { view, authorized: header !== null, replayed, signedHere: inRequest && signedHere ? { intentId, details, ...(forwardNow ? { startWorkflow: inRequest.startWorkflow } : {}) } : null };
}

/**
 * The workflow's path: the intent is created and its workflow authorises and signs; the call
 * waits (bounded) until the header is there, the payment refused or waiting for the owner.
 */
async function signedByWorkflow(
  deps: X402Deps,
  agent: AuthenticatedAgent,
  intentInput: Parameters<typeof createIntent>[2],
  options: { idempotencyKey?: string; waitMs?: number },
) {
  const created = await createIntent(deps, { ownerId: agent.ownerId, createdBy: 'agent', agentId: agent.agentId }, intentInput, { idempotencyKey: options.idempotencyKey });
  return { ...(await signedByItsWorkflow(deps, agent, created.response.id, options.waitMs)), replayed: created.replayed };
}

/**
 * A payment held in this request. One it held but could not sign (an `upto` whose Permit2
 * allowance could not be raised: the chain unreachable) is signed by its workflow, started now.
 */
async function signedInRequest(deps: X402Deps, agent: AuthenticatedAgent, paid: PaidInRequest, options: { waitMs?: number }) {
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

// ---------------------------------------------------------------- proxy

function intentTerms(deps: X402Deps, intentId: string) {
  return deps.db.prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { amount: true, toAddress: true, metadata: true } });
}


/**
 * Calls the upstream with a payment header signed by /x402/sign-payment for this agent (or by
 * this very request: `known`, found and checked already). A header is used once: one the seller
 * already redeemed, or one that expired, is refused here before the seller sees it.
 *
 * After the seller answers: a payment the seller says it settled is confirmed by reading the
 * transaction it named (settleFromReceipt; for `upto` also how much it moved, which the capture
 * takes), and the agent has its answer at once, the payment `processing` until the workflow,
 * told now, captures it. One the chain does not confirm stays as it is; the workflow follows it
 * on chain. Any other payment the seller says it settled is waited for (bounded) until the
 * workflow has settled it in the ledger.
 */
export async function proxyX402Request(deps: X402Deps, agent: AuthenticatedAgent, input: X402ProxyInput, known: KnownHeader | null = null): Promise<X402UpstreamResponseView> {
  if (!input.payment_header) {
    return upstreamView(await callUpstream(deps, input), null);
  }
  const decoded = decodePaymentHeader(input.payment_header);
  const { intentId, details } = known ?? (await signedHeaderOf(deps, agent, input.payment_header, decoded));
  const headers = { ...input.headers, [paymentHeaderName(decoded.x402Version as X402Version)]: input.payment_header };
  let response;
  try {
    response = await callUpstream(deps, { ...input, headers });
  } finally {
    // Signed in this request: its workflow starts once the seller has answered (or failed to).
    void known?.startWorkflow?.();
  }
  const answer = upstreamView(response, null);
  const paid = readPaymentResponse(response.headers);
  const tellWorkflow = () => signalPaymentWorkflow(deps.temporal, intentId, 'railUpdated', (error) => deps.logger.warn({ err: error, intentId }, 'could not signal the payment workflow'));
  let status: IntentStatus;
  if (paid?.success === true && (details.scheme === 'exact' || details.scheme === 'upto')) {
    const confirmed = paid.transaction ? await settleFromReceipt(deps.db.prisma, { masterKey: deps.masterKey, chain: deps.chain }, intentId, paid.transaction) : null;
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
  const hash = await settlementHash(deps, intentId, paid?.success === true ? answer : null);
  countX402Payment(details.scheme, paid?.success !== true ? 'unsettled' : hash ? 'settled_confirmed' : 'settled_pending');
  const sellerReceipt = await keptSellerReceipt(deps, intentId, answer.payment_response, { payer: paymentPayer(decoded), url: input.url, transaction: hash });
  return { ...answer, payment: { intent_id: intentId, status, transaction_hash: hash }, seller_receipt: sellerReceipt };
}

/** The operation that signed `header` for this agent, checked once more, while it can still be redeemed. */
async function signedHeaderOf(deps: X402Deps, agent: AuthenticatedAgent, header: string, decoded: ReturnType<typeof decodePaymentHeader>): Promise<KnownHeader> {
  const operation = await deps.db.prisma.railOperation.findFirst({
    where: { rail: 'x402_base', reference: paymentReference(decoded), paymentIntent: { agentId: agent.agentId } },
    select: { paymentIntentId: true, status: true, details: true },
  });
  if (!operation || (operation.details as Record<string, unknown>).paymentHeader !== header) {
    throw new AppError('NOT_FOUND', 'This payment header was not signed for this agent by /x402/sign-payment');
  }
  if (operation.status !== 'pending') {
    const hash = (operation.details as Record<string, unknown>).transactionHash;
    throw new AppError(
      'CONFLICT',
      operation.status === 'settled'
        ? `This payment header was already redeemed${typeof hash === 'string' ? ` in transaction ${hash}` : ''}; sign a new payment`
        : 'This payment header expired unused; sign a new payment',
    );
  }
  const details = operation.details as Record<string, unknown>;
  await checkedHeader(deps, header, await intentTerms(deps, operation.paymentIntentId), details);
  return { intentId: operation.paymentIntentId, details };
}

/**
 * The seller's signed receipt in its answer, checked against the payment (seller-receipts.ts)
 * and kept with the settled rail operation (after the workflow wrote its details, as the kept
 * answer is); null when the seller sent none.
 */
async function keptSellerReceipt(
  deps: X402Deps,
  intentId: string,
  paymentResponse: unknown,
  paid: { payer: string; url: string; transaction: string | null },
): Promise<SellerReceipt | null> {
  const receipt = receiptInPaymentResponse(paymentResponse);
  if (!receipt) return null;
  const { metadata } = await intentTerms(deps, intentId);
  const x402 = (metadata as { x402?: X402IntentMetadata } | null)?.x402;
  const checked = await checkSellerReceipt(receipt, {
    payer: paid.payer,
    network: deps.chain.info.network,
    resourceUrl: x402?.resource?.url ?? paid.url,
    transaction: paid.transaction,
    offerSigner: x402?.offer_signer ?? null,
  });
  if (Buffer.byteLength(JSON.stringify(checked)) <= KEPT_RECEIPT_MAX_BYTES) {
    await deps.db.prisma.$executeRaw`
      UPDATE rail_operations SET details = details || jsonb_build_object('sellerReceipt', ${JSON.stringify(checked)}::jsonb)
       WHERE payment_intent_id = ${intentId}::uuid AND status = 'settled'`;
  }
  return checked;
}

/** What a kept seller receipt may weigh. */
const KEPT_RECEIPT_MAX_BYTES = 16 * 1024;

/** What a kept seller response may weigh; a larger one is answered once and not kept. */
const KEPT_RESPONSE_MAX_BYTES = 256 * 1024;

/**
 * The payment's transaction hash, once settled. With `keep`, the seller's answer to a settled
 * payment is kept with its rail operation in the same statement, so the same call repeated (its
 * answer lost on the way) gets that answer again instead of a refusal to redeem the header
 * twice. It is merged into the stored details once the operation is settled, after the workflow
 * wrote its own details, so neither write loses the other's.
 */
async function settlementHash(deps: X402Deps, intentId: string, keep: X402UpstreamResponseView | null): Promise<string | null> {
  if (keep && Buffer.byteLength(keep.body) <= KEPT_RESPONSE_MAX_BYTES) {
    const { payment: _payment, ...kept } = keep;
    const [updated] = await deps.db.prisma.$queryRaw<Array<{ hash: string | null }>>`
      UPDATE rail_operations SET details = details || jsonb_build_object('sellerResponse', ${JSON.stringify(kept)}::jsonb)
       WHERE payment_intent_id = ${intentId}::uuid AND status = 'settled'
       RETURNING details->>'transactionHash' AS hash`;
    if (updated) return updated.hash;
  }
  const operation = await deps.db.prisma.railOperation.findUnique({ where: { paymentIntentId: intentId }, select: { details: true } });
  const hash = (operation?.details as Record<string, unknown> | undefined)?.transactionHash;
  return typeof hash === 'string' ? hash : null;
}

// ---------------------------------------------------------------- all in one


/**
 * Requirements, payment and paid call in one: what most agents want. An upstream that does
 * not ask for payment is answered as it is; one that does is paid with the recommended
 * requirement, never above `max_amount`.
 */
export async function fetchWithX402(deps: X402Deps, agent: AuthenticatedAgent, input: X402FetchInput, options: { idempotencyKey?: string } = {}): Promise<FetchOutcome> {
  const first = await callUpstream(deps, input);
  const info = readPaymentRequired(first);
  if (!info) return { kind: 'response', view: upstreamView(first, null) };

  // An open channel to this seller is used before anything else it offers; otherwise the
  // recommended requirement, which is a channel only when the seller offers nothing else.
  const reuse = await channelToReuse(deps, agent, info);
  const requirement = reuse?.requirement ?? recommendRequirement(info.accepts, info.x402Version, deps.chain.info.network, deps.chain.info.usdcAddress);
  if (!requirement) {
    throw new AppError('RAIL_UNAVAILABLE', `The seller accepts no exact USDC payment on ${deps.chain.info.network} (${deps.chain.info.displayName})`);
  }
  const priced = priceFor(deps, requirement as unknown as Record<string, unknown>, info.x402Version);
  const price = priced.channel?.price ?? priced.amount;
  if (input.max_amount !== undefined && price > input.max_amount) {
    throw new AppError('POLICY_VIOLATION', `The seller asks ${toDecimalString(price)} USDC, more than max_amount ${toDecimalString(input.max_amount)}; nothing was paid`);
  }
  const sign = (channel: boolean) =>
    signX402Payment(
      deps,
      agent,
      {
        requirement: requirement as unknown as X402SignPaymentInput['requirement'],
        x402_version: info.x402Version,
        url: input.url,
        ...(info.resource ? { resource: info.resource as X402IntentMetadata['resource'] } : {}),
        // A channel pays many calls: it is named after its seller, not after the first call.
        description: input.description ?? (channel ? `Payment channel to ${new URL(input.url).host}` : undefined),
        category: input.category,
        idempotency_key: input.idempotency_key,
        ...(info.extensions ? { extensions: info.extensions } : {}),
      },
      { idempotencyKey: options.idempotencyKey, urlFetched: true, channel, forwardNow: !channel },
    );
  if (priced.scheme === 'batch-settlement') {
    const idempotencyKey = options.idempotencyKey ?? input.idempotency_key;
    return payThroughChannel(deps, agent, {
      input,
      info,
      requirement: requirement as unknown as Record<string, unknown>,
      priced,
      ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
      open: async () => (await sign(true)).view,
    });
  }
  const signed = await sign(false);
  if (!signed.authorized) return { kind: 'waiting', view: signed.view };
  // The same call again, by its Idempotency-Key (a client retrying after a lost answer): the
  // answer the seller gave for this payment, not an attempt to redeem its header twice.
  const kept = signed.replayed ? await keptSellerResponse(deps, agent, signed.view.intent_id) : null;
  if (kept) return { kind: 'response', view: kept };
  return { kind: 'response', view: await proxyX402Request(deps, agent, { ...input, payment_header: signed.view.xPaymentHeader! }, signed.signedHere) };
}

async function keptSellerResponse(deps: X402Deps, agent: AuthenticatedAgent, intentId: string): Promise<X402UpstreamResponseView | null> {
  const operation = await deps.db.prisma.railOperation.findFirst({
    where: { paymentIntentId: intentId, status: 'settled', paymentIntent: { agentId: agent.agentId } },
    select: { details: true },
  });
  const details = operation?.details as Record<string, unknown> | undefined;
  const kept = details?.sellerResponse as Omit<X402UpstreamResponseView, 'payment'> | undefined;
  if (!kept) return null;
  const intent = await getIntent(deps.db.prisma, agent.ownerId, intentId);
  const hash = details!.transactionHash;
  const receipt = (details!.sellerReceipt ?? null) as SellerReceipt | null;
  return { ...kept, payment: { intent_id: intentId, status: intent.status, transaction_hash: typeof hash === 'string' ? hash : null }, seller_receipt: receipt };
}

