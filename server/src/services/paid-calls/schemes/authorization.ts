/**
 * What the two authorisation schemes (exact/, upto/) share: a header signed once with the
 * official scheme client and Purser's window, checked against the price before it is stored;
 * a pending authorisation looked at again with back-off; and its end by expiry, in chain time.
 */
import { AppError } from '@purser/core';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import type { LocalAccount } from 'viem';
import { readAgentEvmAccount } from '../../identity/agent-keys';
import { resolveOperation, type NewOperation, type StoredOperation } from '../../rail-operations/operation-record';
import type { RailDetails } from '../../rail-operations/rail';
import { decodePaymentHeader, paymentReference, type DecodedPaymentHeader } from '../x402/payment-header';
import { declaredPaymentIdentifier, paymentIdentifierExtension, paymentIdentifierFor } from '../x402/payment-identifier';
import { chainClockSeconds, clockSkewSeconds, latestValidBefore } from './chain-clock';
import type { PaymentScheme, SchemeContext, SignRequest, SigningFacts } from './payment-scheme';
import { requirementAsSigned } from './requirement-as-signed';
import { checkSignedHeader } from './signed-header';

/** An official x402 scheme client: builds the signed payload for a requirement. */
export interface SchemeClient {
  createPaymentPayload(x402Version: number, requirements: PaymentRequirements): Promise<{ payload: unknown }>;
}

/**
 * Signs a priced requirement with the scheme's official client, under Purser's window. v1
 * payloads name scheme and network; a v2 payment echoes the seller's requirement exactly as it
 * was offered, with the resource and the payment identifier.
 */
export async function signAuthorizationHeader(client: SchemeClient, request: SignRequest): Promise<string> {
  const { requirement, priced, domain, resource, paymentId } = request;
  const signing = requirementAsSigned(requirement, priced.validitySeconds, domain);
  if (priced.x402Version === 1) {
    return encodePaymentSignatureHeader((await client.createPaymentPayload(1, signing)) as unknown as PaymentPayload);
  }
  const { payload } = await client.createPaymentPayload(2, signing);
  return encodePaymentSignatureHeader({
    x402Version: 2,
    payload: payload as PaymentPayload['payload'],
    accepted: requirement as unknown as PaymentRequirements,
    ...(resource ? { resource: resource as PaymentPayload['resource'] } : {}),
    ...(paymentId ? { extensions: paymentIdentifierExtension(paymentId.id, paymentId.declared) } : {}),
  });
}

/** A signed, not yet used authorisation is first looked at again after this long. */
export const AUTHORIZATION_POLL_MS = 1_000;
/**
 * ... and then after half its age, up to 30 s, and once more when its window closes: the seller's
 * call signals the workflow when it redeems, so the looks only catch what nobody announced, and a
 * seller that redeems minutes late costs a dozen looks in the workflow's history, not one a second.
 */
const MAX_AUTHORIZATION_POLL_MS = 30_000;

/**
 * Signs the payment's authorisation with the agent's key and checks the header against the
 * terms it was priced at: the pending operation that hands it out (the scheme's state with the
 * header), or a declined one (never stored with the header, so never handed out or forwarded)
 * when the check fails. Reads nothing, so it can run inside the transaction that holds the funds
 * (front/pay-in-request.ts).
 */
export async function signedOperation(
  scheme: Pick<PaymentScheme, 'name' | 'sign' | 'check'>,
  facts: SigningFacts,
  stateOf: (decoded: DecodedPaymentHeader, common: RailDetails) => RailDetails,
): Promise<NewOperation> {
  const { network, payment, price, x402, payer, account, domain, fromBlock, idempotencyKey } = facts;
  const header = await scheme.sign(account, {
    requirement: x402.requirement,
    priced: price,
    domain,
    resource: x402.resource,
    paymentId: { id: paymentIdentifierFor(payment.payer.agentId, idempotencyKey), declared: declaredPaymentIdentifier(x402.extensions) },
    ...(x402.mpp ? { mpp: x402.mpp } : {}),
  });
  // The window is Purser's, counted from now: the header may not outlive it.
  const latest = latestValidBefore(price.validitySeconds);
  const decoded = decodePaymentHeader(header);
  try {
    await checkSignedHeader(scheme, decoded, { ...price, from: payer, latestValidBefore: latest }, domain);
  } catch (error) {
    // Never stored, so never handed out or forwarded: it cannot move money.
    if (!(error instanceof AppError)) throw error;
    return refusedOperation(payment.intentId, 'authorization_mismatch', error.message, { network, payer });
  }
  const reference = paymentReference(decoded);
  return {
    reference,
    status: 'pending',
    settleAfter: new Date(Date.now() + AUTHORIZATION_POLL_MS),
    details: stateOf(decoded, {
      network,
      x402Version: x402.x402_version,
      scheme: price.scheme,
      payer,
      payTo: price.payTo,
      nonce: reference,
      latestValidBefore: latest.toString(),
      fromBlock: fromBlock.toString(),
      paymentHeader: header,
      transactionHash: null,
    }),
  };
}

/** A payment the rail refused before anything was signed or stored to hand out: it cannot move money. */
export function refusedOperation(intentId: string, declineCode: string, declineMessage: string, details: { network: string; payer: string }): NewOperation {
  return { reference: `x402-refused-${intentId}`, status: 'declined', declineCode, declineMessage, details };
}

/** When a pending authorisation ending at `validBefore` (unix seconds) is looked at next. */
export function nextLookAtAuthorization(context: SchemeContext, operation: StoredOperation, validBefore: string, now: number): Date {
  const backOff = Math.min(Math.max((now - operation.createdAt.getTime()) / 2, AUTHORIZATION_POLL_MS), MAX_AUTHORIZATION_POLL_MS);
  // Just after the window closes (the chain's clock may lag the server's by the skew margin).
  const closes = Number(validBefore) * 1000 + clockSkewSeconds(context.chain.info) * 1000;
  const next = Number.isFinite(closes) && closes > now ? Math.min(now + backOff, closes + AUTHORIZATION_POLL_MS) : now + backOff;
  return new Date(next);
}

/** A block as a decision reads it: its number, which every state read after it names, and its time. */
export interface DecisionBlock {
  number: bigint;
  timestamp: bigint;
}

/**
 * The block a decision to release or capture a hold is read at: the chain's head, read first.
 * Every state read after it names this block's number, so a node that serves state from an older
 * block than the head it reports cannot answer for it (it has no such block, and says so), and a
 * window is judged from this block's timestamp only, never from this machine's clock (`ended`
 * is the scheme's own rule, as its contract counts it). The sandbox's anvil mines only on demand:
 * when the head's time has not passed the end but the clock has (by the skew margin), one empty
 * block is mined so that the chain itself shows the time. The clock decides when to mine, never
 * that a window ended.
 */
export async function decisionBlock(context: SchemeContext, ended: (timestamp: bigint) => boolean): Promise<DecisionBlock> {
  const head = await context.chain.latestBlock();
  if (!context.chain.info.sandbox || ended(head.timestamp) || !ended(chainClockSeconds(context.chain.info))) return head;
  await context.chain.mineSandboxBlock();
  return context.chain.latestBlock();
}

/**
 * Declined once the decision block's time has passed the authorisation's window (`expired`) and
 * it was unused at that block: no later block can move the money, so the workflow releases the
 * hold. The operation as it was while the window is open.
 */
export async function expiredOrPending(context: SchemeContext, operation: StoredOperation, expired: boolean): Promise<StoredOperation> {
  if (!expired) return operation;
  return resolveOperation(context.prisma, operation, {
    status: 'declined',
    declineCode: 'authorization_expired',
    declineMessage: 'The seller did not redeem the signed payment before it expired; nothing moved on chain',
  });
}

/**
 * Voids a pending authorisation with the agent's key (`voidOnChain`: the scheme's transaction),
 * then reads how it ended: cancelled, or used if the seller redeemed it first (the void then
 * reverts, and the chain says so). Throws while the chain cannot tell.
 */
export async function cancelAuthorization(
  context: SchemeContext,
  operation: StoredOperation,
  agentId: string,
  follow: (context: SchemeContext, operation: StoredOperation) => Promise<StoredOperation>,
  voidOnChain: (account: LocalAccount, operation: StoredOperation) => Promise<StoredOperation>,
): Promise<StoredOperation> {
  const current = await follow(context, operation);
  if (current.status !== 'pending') return current;
  try {
    const account = await readAgentEvmAccount(context.prisma, context.masterKey, agentId, { evenIfRevoked: true });
    return await follow(context, await voidOnChain(account, current));
  } catch (error) {
    const after = await follow(context, current);
    if (after.status !== 'pending') return after;
    throw error;
  }
}

/** How an unused authorisation ends when the agent voided it on chain first. */
export const CANCELLED_ON_CHAIN = {
  status: 'declined',
  declineCode: 'authorization_cancelled',
  declineMessage: 'The signed payment was cancelled on chain before the seller redeemed it; nothing moved',
} as const;
