/**
 * x402 `upto` (v2 only): a Permit2 PermitWitnessTransferFrom of at most the price (the maximum,
 * which is what the gate sees and the hold takes), spendable only by x402's upto proxy, only to
 * the payee and only when the seller's named facilitator settles it. The seller settles what was
 * used; the chain says how much moved (`capturedAmount`), which the capture pays, returning the
 * rest of the hold. Before signing, the agent's Permit2 allowance is raised to what its open
 * `upto` payments hold (this one included), never more; once one ends it shrinks again.
 * Abandoning invalidates the Permit2 nonce, sent by the agent.
 */
import { getAddress, isAddress } from 'viem';
import { UptoEvmScheme } from '@x402/evm/upto/client';
import type { Address } from 'viem';
import { resolveOperation, type StoredOperation } from '../../../rail-operations/operation-record';
import { uptoPayload } from '../../x402/payment-header';
import { CANCELLED_ON_CHAIN, cancelAuthorization, expiredOrPending, nextLookAtAuthorization, signAuthorizationHeader, signedOperation } from '../authorization';
import { mergeDetails } from '../operation-details';
import type { PaymentScheme, SchemeContext } from '../payment-scheme';
import { refused } from '../problems';
import { searchFromBlock } from '../search-from-block';
import { checkPermit2Authorization } from './permit2';
import { syncPermit2Allowance } from './permit2-allowance';
import { findUptoSettlement, uptoSettlementIn } from './upto-settlement';
import { uptoStateOf, type UptoState } from './upto-state';

export const uptoScheme: PaymentScheme = {
  name: 'upto',
  versions: [2],
  transferMethod: 'permit2',
  paidInRequest: 'after-commit',
  channel: false,

  price(extra, amount) {
    if (typeof extra.facilitatorAddress !== 'string' || !isAddress(extra.facilitatorAddress)) throw refused('The "upto" requirement names no facilitator address (extra.facilitatorAddress)');
    return { amount, facilitator: getAddress(extra.facilitatorAddress) };
  },

  // No extension context: Purser itself sees to the agent's Permit2 allowance (never more than
  // it holds), so the client signs no approval for the seller to submit.
  sign: (account, request) => signAuthorizationHeader(new UptoEvmScheme(account), request),

  async open(context, facts) {
    // Permit2 may move no more than the agent's open `upto` payments hold, this one included.
    await syncPermit2Allowance(context, facts.payment.payer.agentId);
    return signedOperation(uptoScheme, facts, (decoded, common) => ({
      ...common,
      validBefore: uptoPayload(decoded).permit2Authorization.deadline,
      maximum: facts.price.amount.toString(),
      facilitator: facts.price.facilitator!,
      agentId: facts.payment.payer.agentId,
    }));
  },

  check: (decoded, terms, domain, expect) => checkPermit2Authorization({ ...decoded, scheme: 'upto', payload: uptoPayload(decoded) }, terms, domain.chainId, expect),

  follow,

  nextLook: (context, operation, now) => nextLookAtAuthorization(context, operation, uptoStateOf(operation).validBefore, now),

  cancel: (context, operation, agentId) =>
    cancelAuthorization(context, operation, agentId, follow, async (account, current) => {
      const cancelTransactionHash = await context.chain.invalidatePermit2Nonce(account, BigInt(uptoStateOf(current).nonce));
      const patch: Partial<UptoState> = { cancelTransactionHash };
      const details = await mergeDetails(context.prisma, { id: current.id, status: 'pending' }, patch);
      return { ...current, details: (details ?? { ...current.details, ...patch }) as StoredOperation['details'] };
    }),

  async confirm(context, operation, transactionHash) {
    const state = uptoStateOf(operation);
    const settlement = await uptoSettlementIn(context.chain.publicClient, context.chain.info.usdcAddress, transactionHash, { owner: state.payer as Address, payTo: state.payTo as Address, nonce: BigInt(state.nonce) });
    if (!settlement) return null;
    const settled = await resolveOperation(context.prisma, operation, { status: 'settled', settledAt: new Date() }, { transactionHash, capturedAmount: settlement.amount.toString() });
    void syncPermit2Allowance(context, state.agentId).catch(() => {});
    return settled;
  },

  signedTerms(decoded) {
    const { from, permitted, witness, deadline, nonce } = uptoPayload(decoded).permit2Authorization;
    return { from, to: witness.to, value: permitted.amount, validAfter: witness.validAfter, validBefore: deadline, nonce };
  },
};

/**
 * An `upto` authorisation ends when its Permit2 nonce is used: by the seller's settlement (the
 * chain says how much moved) or by the agent's invalidation (nothing moved); or when its
 * deadline passes unused. Once it ended, the agent's Permit2 allowance shrinks to what its other
 * open `upto` payments hold.
 */
async function follow(context: SchemeContext, operation: StoredOperation): Promise<StoredOperation> {
  if (operation.status !== 'pending') return operation;
  const { chain, prisma } = context;
  const state = uptoStateOf(operation);
  const nonce = BigInt(state.nonce);
  let ended: StoredOperation;
  if (!(await chain.permit2NonceUsed(state.payer as Address, nonce))) {
    ended = await expiredOrPending(context, operation, BigInt(state.validBefore));
  } else {
    const search = { owner: state.payer as Address, payTo: state.payTo as Address, nonce };
    const settlement = await searchFromBlock(chain.info, BigInt(state.fromBlock), (fromBlock) => findUptoSettlement(chain.publicClient, chain.info.usdcAddress, { ...search, fromBlock }), (found) => found !== null);
    if (settlement) {
      ended = await resolveOperation(prisma, operation, { status: 'settled', settledAt: new Date() }, { transactionHash: settlement.transactionHash, capturedAmount: settlement.amount.toString() });
    } else if (state.cancelTransactionHash !== undefined) {
      ended = await resolveOperation(prisma, operation, CANCELLED_ON_CHAIN);
    } else {
      // The nonce is used but its transfer is not visible yet: look again.
      return operation;
    }
  }
  if (ended.status !== 'pending') await syncPermit2Allowance(context, state.agentId).catch(() => {});
  return ended;
}
