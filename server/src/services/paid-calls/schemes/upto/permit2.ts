/**
 * Permit2 as `upto` uses it: the check of a signed PermitWitnessTransferFrom against the terms it
 * was priced at. It may move at most the held amount, of our USDC, from the agent, only to the
 * payee, only through x402's upto proxy, only when settled by the seller's named facilitator, and
 * only within Purser's window.
 */
import { PERMIT2_ADDRESS, uptoPermit2WitnessTypes, x402UptoPermit2ProxyAddress } from '@x402/evm';
import { getAddress, isAddressEqual, verifyTypedData, type Address, type Hex } from 'viem';
import type { UptoPaymentHeader } from '../../x402/payment-header';
import type { AuthorizationTerms } from '../payment-scheme';
import { countingExpect, type Expect } from '../problems';

/**
 * Whether a Permit2 signature with `deadline` can no longer be used in a block of `timestamp`:
 * SignatureTransfer's `_permitTransferFrom` reverts only when `block.timestamp > deadline`, so a
 * block whose timestamp equals the deadline still settles it (and a chain may mine more than one
 * block with that timestamp).
 */
export function permit2Expired(timestamp: bigint, deadline: bigint): boolean {
  return timestamp > deadline;
}

export async function checkPermit2Authorization(decoded: UptoPaymentHeader, terms: AuthorizationTerms, chainId: number, expect: Expect): Promise<void> {
  const { permit2Authorization: permit, signature } = decoded.payload;
  const { check, failed } = countingExpect(expect);
  check(isAddressEqual(permit.from as Address, terms.from), `payer ${permit.from}, not ${terms.from}`);
  check(isAddressEqual(permit.witness.to as Address, terms.payTo), `payee ${permit.witness.to}, not ${terms.payTo}`);
  check(isAddressEqual(permit.permitted.token as Address, terms.asset), `token ${permit.permitted.token}, not ${terms.asset}`);
  check(BigInt(permit.permitted.amount) === terms.amount, `maximum ${permit.permitted.amount}, not ${terms.amount}`);
  check(isAddressEqual(permit.spender as Address, x402UptoPermit2ProxyAddress), `spender ${permit.spender}, not x402's upto proxy ${x402UptoPermit2ProxyAddress}`);
  check(terms.facilitator !== undefined && isAddressEqual(permit.witness.facilitator as Address, terms.facilitator), `facilitator ${permit.witness.facilitator}, not ${terms.facilitator ?? 'the one the seller named'}`);
  check(BigInt(permit.deadline) <= terms.latestValidBefore, `valid until ${permit.deadline}, later than ${terms.latestValidBefore}`);
  check(BigInt(permit.witness.validAfter) <= BigInt(permit.deadline), 'its window is empty');
  if (failed() > 0) return;
  const valid = await verifyTypedData({
    address: terms.from,
    domain: { name: 'Permit2', chainId, verifyingContract: PERMIT2_ADDRESS },
    types: uptoPermit2WitnessTypes,
    primaryType: 'PermitWitnessTransferFrom',
    message: {
      permitted: { token: getAddress(permit.permitted.token), amount: BigInt(permit.permitted.amount) },
      spender: getAddress(permit.spender),
      nonce: BigInt(permit.nonce),
      deadline: BigInt(permit.deadline),
      witness: { to: getAddress(permit.witness.to), facilitator: getAddress(permit.witness.facilitator), validAfter: BigInt(permit.witness.validAfter) },
    },
    signature: signature as Hex,
  }).catch(() => false);
  expect(valid, `its signature is not ${terms.from}'s over these terms under Permit2 on chain ${chainId}`);
}
