/**
 * A payment header Purser signed, decoded and checked against its intent once more before it
 * leaves Purser: to the agent (sign-payment) or to the seller (proxy). A header is used once:
 * one the seller already redeemed, or one that expired, is refused before the seller sees it.
 */
import { AppError } from '@purser/core';
import { getAddress, zeroAddress } from 'viem';
import type { AuthenticatedAgent } from '../../agents/authenticate-agent';
import { x402MetadataOf } from '../x402/intent-metadata';
import { paymentReference, type DecodedPaymentHeader } from '../x402/payment-header';
import { keptAnswersOf, type KeptAnswers } from './kept-answers';
import { refused } from '../schemes/problems';
import { priceFor } from './price-requirement';
import { assertSignedAsPriced } from './signed-headers';
import type { X402Deps } from './x402-deps';

/** A header this request signed (or found), its operation's details, and the start of its workflow when still to do. */
export interface KnownHeader {
  intentId: string;
  details: KeptAnswers;
  startWorkflow?: () => Promise<boolean>;
}

export function intentTerms(deps: X402Deps, intentId: string) {
  return deps.db.prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { amount: true, toAddress: true, metadata: true } });
}

/** Checks `header` against the intent it was signed for; throws X402_REFUSED listing every difference. */
export async function checkedHeader(deps: X402Deps, header: string, intent: { toAddress: string | null; metadata: unknown }, details: KeptAnswers): Promise<void> {
  const x402 = x402MetadataOf(intent.metadata);
  if (!x402 || !intent.toAddress) throw refused('This payment intent holds no x402 requirement; its header is not used');
  const priced = priceFor(deps, x402.requirement, x402.x402_version);
  await assertSignedAsPriced(
    header,
    {
      // The header signed the price (for `upto` the maximum, while the intent's amount becomes
      // what the seller settled); the rail pays an intent only at its requirement's price.
      ...priced,
      payTo: getAddress(intent.toAddress),
      // A record without its payer cannot match any signature.
      from: details.payer ?? zeroAddress,
      latestValidBefore: BigInt(String(details.latestValidBefore ?? details.validBefore)),
    },
    await deps.chain.usdcDomain(),
  );
}

/** The operation that signed `header` for this agent, checked once more, while it can still be redeemed. */
export async function signedHeaderOf(deps: X402Deps, agent: AuthenticatedAgent, header: string, decoded: DecodedPaymentHeader): Promise<KnownHeader> {
  const operation = await deps.db.prisma.railOperation.findFirst({
    where: { rail: 'x402_base', reference: paymentReference(decoded), paymentIntent: { agentId: agent.agentId } },
    select: { paymentIntentId: true, status: true, details: true },
  });
  const details = keptAnswersOf(operation?.details);
  if (!operation || details.paymentHeader !== header) {
    throw new AppError('NOT_FOUND', 'This payment header was not signed for this agent by /x402/sign-payment');
  }
  if (operation.status !== 'pending') {
    const hash = details.transactionHash;
    throw new AppError(
      'CONFLICT',
      operation.status === 'settled'
        ? `This payment header was already redeemed${typeof hash === 'string' ? ` in transaction ${hash}` : ''}; sign a new payment`
        : 'This payment header expired unused; sign a new payment',
    );
  }
  await checkedHeader(deps, header, await intentTerms(deps, operation.paymentIntentId), details);
  return { intentId: operation.paymentIntentId, details };
}
