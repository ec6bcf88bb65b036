/**
 * x402 `exact`: an EIP-3009 transferWithAuthorization of exactly the price to the payee, signed
 * by the agent with the official client, redeemed by the seller's facilitator. The operation is
 * pending while the authorisation is unused; the chain says how it ended: used (settled, with the
 * transaction that used it), cancelled by the agent, or past its window unused (declined), so the
 * workflow releases the held funds only once the header can no longer move money.
 */
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { ExactEvmSchemeV1 } from '@x402/evm/exact/v1/client';
import type { Hex } from 'viem';
import { resolveOperation, type StoredOperation } from '../../../rail-operations/operation-record';
import { signChargeCredential } from '../../mpp/payment-credential';
import { exactPayload } from '../../x402/payment-header';
import { CANCELLED_ON_CHAIN, cancelAuthorization, decisionBlock, expiredOrPending, nextLookAtAuthorization, signAuthorizationHeader, signedOperation } from '../authorization';
import type { PaymentScheme, SchemeContext } from '../payment-scheme';
import { searchFromBlock } from '../search-from-block';
import { cancelAuthorizationOnChain, checkEip3009Authorization, eip3009Expired, usedInTransaction } from './eip3009';
import { exactStateOf } from './exact-state';

export const exactScheme: PaymentScheme = {
  name: 'exact',
  versions: [1, 2],
  transferMethod: 'eip3009',
  paidInRequest: 'in-transaction',
  channel: false,

  price: (_extra, amount) => ({ amount }),

  // The same authorisation in the wire the payment travels in: an x402 payload signed with the
  // official x402 client, or an MPP credential signed with mppx's EVM client.
  sign: (account, request) =>
    request.mpp
      ? signChargeCredential(account, request.mpp.challenge, { ...request.domain, chainId: chainIdOf(request.priced.network), currency: request.priced.asset })
      : signAuthorizationHeader(request.priced.x402Version === 1 ? new ExactEvmSchemeV1(account) : new ExactEvmScheme(account), request),

  open: (_context, facts) => signedOperation(exactScheme, facts, (decoded, common) => ({ ...common, validBefore: exactPayload(decoded).authorization.validBefore })),

  check: (decoded, terms, domain, expect) => checkEip3009Authorization({ ...decoded, scheme: 'exact', payload: exactPayload(decoded) }, terms, domain, expect),

  follow,

  nextLook: (context, operation, now) => nextLookAtAuthorization(context, operation, exactStateOf(operation).validBefore, now),

  cancel: (context, operation, agentId) =>
    cancelAuthorization(context, operation, agentId, follow, async (account, current) => {
      await cancelAuthorizationOnChain(context.chain, account, exactStateOf(current).nonce as Hex);
      return current;
    }),

  async confirm(context, operation, transactionHash) {
    const { payer, nonce } = exactStateOf(operation);
    if (!(await usedInTransaction(context.chain, transactionHash, payer as Hex, nonce as Hex))) return null;
    return resolveOperation(context.prisma, operation, { status: 'settled', settledAt: new Date() }, { transactionHash });
  },

  signedTerms: (decoded) => exactPayload(decoded).authorization,
};

/**
 * Resolves a pending operation once the chain says how it ended: used, cancelled or expired. The
 * block is read first and everything after it at that block (authorization.ts, decisionBlock).
 */
async function follow(context: SchemeContext, operation: StoredOperation): Promise<StoredOperation> {
  if (operation.status !== 'pending') return operation;
  const { chain, prisma } = context;
  const state = exactStateOf(operation);
  const payer = state.payer as Hex;
  const nonce = state.nonce as Hex;
  const validBefore = BigInt(state.validBefore);
  const block = await decisionBlock(context, (timestamp) => eip3009Expired(timestamp, validBefore));
  if (!(await chain.authorizationUsed(payer, nonce, block.number))) return expiredOrPending(context, operation, eip3009Expired(block.timestamp, validBefore));
  const outcome = await searchFromBlock(
    chain.info,
    BigInt(state.fromBlock),
    (fromBlock) => chain.authorizationOutcome(payer, nonce, fromBlock, block.number),
    ({ used, cancelled }) => used !== null || cancelled !== null,
  );
  if (outcome?.used) return resolveOperation(prisma, operation, { status: 'settled', settledAt: new Date() }, { transactionHash: outcome.used });
  // FiatToken logs AuthorizationCanceled only when the cancel is what ended it (a used one reverts it).
  if (outcome?.cancelled) return resolveOperation(prisma, operation, CANCELLED_ON_CHAIN, { cancelTransactionHash: outcome.cancelled });
  // The state says it ended but its log is not visible yet: look again.
  return operation;
}

/** The chain id of a CAIP-2 EVM network (`eip155:84532`). */
function chainIdOf(network: string): number {
  return Number(network.slice('eip155:'.length));
}
