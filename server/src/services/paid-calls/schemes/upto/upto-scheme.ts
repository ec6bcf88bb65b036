/**
 * x402 `upto` (v2 only): a Permit2 PermitWitnessTransferFrom of at most the price (the maximum,
 * which is what the gate sees and the hold takes), spendable only by x402's upto proxy, only to
 * the payee and only when the seller's named facilitator settles it. The seller settles what was
 * used; the chain says how much moved (`capturedAmount`), which the capture pays, returning the
 * rest of the hold. Before signing, the agent's Permit2 allowance is raised to what its open
 * `upto` payments hold (this one included), never more; once one ends it shrinks again.
 * Abandoning lowers that allowance first (a permit the platform's gas payer submits), then, when
 * the agent holds gas, invalidates the Permit2 nonce (voidOnChain).
 */
import { getAddress, isAddress, type Address, type Hex, type LocalAccount } from 'viem';
import { UptoEvmScheme } from '@x402/evm/upto/client';
import { resolveOperation, type StoredOperation } from '../../../rail-operations/operation-record';
import { uptoPayload } from '../../x402/payment-header';
import { CANCELLED_ON_CHAIN, cancelAuthorization, decisionBlock, expiredOrPending, nextLookAtAuthorization, signAuthorizationHeader, signedOperation } from '../authorization';
import { mergeDetails } from '../operation-details';
import type { PaymentScheme, SchemeContext } from '../payment-scheme';
import { refused } from '../problems';
import { searchFromBlock } from '../search-from-block';
import { checkPermit2Authorization, permit2Expired } from './permit2';
import { syncPermit2Allowance } from './permit2-allowance';
import { cancelUsedNonce, findUptoSettlement, uptoSettlementIn, type UptoPermit, type UptoSettlement } from './upto-settlement';
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

  cancel: (context, operation, agentId) => cancelAuthorization(context, operation, agentId, follow, (account, current) => voidOnChain(context, account, current, agentId)),

  async confirm(context, operation, transactionHash) {
    const state = uptoStateOf(operation);
    const settlement = await uptoSettlementIn(context.chain.publicClient, context.chain.info.usdcAddress, transactionHash, permitOf(state));
    // Only a settlement to capture as it is confirms here; one that moved nothing, or a reading
    // an operator must look at, is the workflow's to end (it looks at once).
    if (settlement?.kind !== 'settled' || settlement.amount === 0n || settlement.amount > BigInt(state.maximum)) return null;
    const settled = await endedBy(context, operation, state, settlement);
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
 * proxy's own settlement says how much moved) or by the agent's invalidation (nothing moved: only
 * when that cancel is what used the nonce); or when its deadline passes unused. Everything is read
 * at one block, read first (authorization.ts, decisionBlock). Once it ended, the agent's Permit2
 * allowance shrinks to what its other open `upto` payments hold.
 */
async function follow(context: SchemeContext, operation: StoredOperation): Promise<StoredOperation> {
  if (operation.status !== 'pending') return operation;
  const { chain, prisma } = context;
  const state = uptoStateOf(operation);
  const permit = permitOf(state);
  const deadline = BigInt(state.validBefore);
  const block = await decisionBlock(context, (timestamp) => permit2Expired(timestamp, deadline));
  let ended: StoredOperation;
  if (!(await chain.permit2NonceUsed(permit.owner, permit.nonce, block.number))) {
    ended = await expiredOrPending(context, operation, permit2Expired(block.timestamp, deadline));
  } else {
    const read = (fromBlock: bigint) => findUptoSettlement(chain.publicClient, chain.info.usdcAddress, { ...permit, fromBlock, toBlock: block.number });
    const settlement = await searchFromBlock(chain.info, BigInt(state.fromBlock), read, (found) => found !== null);
    if (settlement) {
      ended = await endedBy(context, operation, state, settlement);
    } else if (state.cancelTransactionHash !== undefined && (await cancelUsedNonce(chain.publicClient, chain.info.usdcAddress, permit, state.cancelTransactionHash as Hex, block.number))) {
      ended = await resolveOperation(prisma, operation, CANCELLED_ON_CHAIN);
    } else {
      // The nonce is used, but what used it is not visible yet: look again, holding.
      return operation;
    }
  }
  if (ended.status !== 'pending') await syncPermit2Allowance(context, state.agentId).catch(() => {});
  return ended;
}

/**
 * How a settlement the chain shows ends the operation. What the proxy moved is captured; a
 * settlement of 0 moved nothing, so the payment is declined and the whole hold released (as for
 * any declined payment: the intent fails); a reading that breaks the scheme's invariants (more
 * than the signed maximum moved, or settlements the chain cannot tell apart) is settled with
 * `captureInvariant` naming it, which the capture refuses for an operator (payments/settle-payment.ts).
 */
function endedBy(context: SchemeContext, operation: StoredOperation, state: UptoState, settlement: UptoSettlement): Promise<StoredOperation> {
  const settled = { status: 'settled', settledAt: new Date() } as const;
  if (settlement.kind === 'ambiguous') {
    const captureInvariant = `Permit2 nonce ${state.nonce} was used in a block where ${settlement.transactionHashes.length} settlements from ${state.payer} to ${state.payTo} went through other contracts (${settlement.transactionHashes.join(', ')}): which one is this payment's cannot be told from the chain`;
    return resolveOperation(context.prisma, operation, settled, { transactionHash: null, captureInvariant });
  }
  const { transactionHash, amount } = settlement;
  if (amount === 0n) return resolveOperation(context.prisma, operation, SETTLED_FOR_NOTHING, { transactionHash, capturedAmount: '0' });
  if (amount > BigInt(state.maximum)) {
    const captureInvariant = `The chain says ${amount} moved in ${transactionHash}, more than the ${state.maximum} signed and held`;
    return resolveOperation(context.prisma, operation, settled, { transactionHash, capturedAmount: amount.toString(), captureInvariant });
  }
  return resolveOperation(context.prisma, operation, settled, { transactionHash, capturedAmount: amount.toString() });
}

/** How an `upto` payment the seller settled for 0 ends: nothing moved, the hold comes back whole. */
const SETTLED_FOR_NOTHING = {
  status: 'declined',
  declineCode: 'settled_for_nothing',
  declineMessage: 'The seller settled the signed payment for 0 on chain; nothing moved, and the hold is returned whole',
} as const;

/**
 * Voids a pending `upto` authorisation without spending the agent's ETH first. The operation
 * leaves what the agent's Permit2 allowance covers, and the allowance is lowered to what its other
 * open `upto` payments hold by a USDC permit the agent signs and the platform's gas payer submits
 * (permit2-allowance.ts): Permit2 moves tokens with the token's allowance, so from that block on
 * this authorisation cannot move the money (Permit2 offers no signed way to invalidate an
 * unordered nonce, and its AllowanceTransfer permits do not govern SignatureTransfer). It still
 * lives until its deadline (a later raise of the allowance, for a new payment, would let it move
 * money again), so it is not counted as cancelled: its hold stays until the chain shows it ended.
 * When the agent's wallet holds the gas, it then invalidates the nonce itself, which ends it for
 * good at once; without gas it ends when its deadline passes by chain time. With no gas payer
 * (an external facilitator), the agent's own transactions are the only way.
 */
async function voidOnChain(context: SchemeContext, account: LocalAccount, current: StoredOperation, agentId: string): Promise<StoredOperation> {
  let operation = await withDetails(context, current, { cancelRequestedAt: new Date().toISOString() });
  const shrunk = await syncPermit2Allowance(context, agentId).then(
    () => null,
    (error: unknown) => error,
  );
  const nonce = BigInt(uptoStateOf(operation).nonce);
  const { cost, balance } = await context.chain.permit2InvalidationCost(account.address, nonce);
  if (balance >= cost) {
    // Recorded once sent, before it is mined: a cancel whose hash was lost could never be shown to be what used the nonce.
    await context.chain.invalidatePermit2Nonce(account, nonce, async (cancelTransactionHash) => {
      operation = await withDetails(context, operation, { cancelTransactionHash });
    });
  } else if (shrunk !== null) {
    throw shrunk;
  }
  return operation;
}

/** The operation with `patch` merged into its stored details, while it is pending. */
async function withDetails(context: SchemeContext, operation: StoredOperation, patch: Partial<UptoState>): Promise<StoredOperation> {
  const details = await mergeDetails(context.prisma, { id: operation.id, status: 'pending' }, patch);
  return { ...operation, details: (details ?? { ...operation.details, ...patch }) as StoredOperation['details'] };
}

function permitOf(state: UptoState): UptoPermit {
  return { owner: state.payer as Address, payTo: state.payTo as Address, nonce: BigInt(state.nonce) };
}
