/**
 * EIP-3009 on USDC, as `exact` uses it: the check of a signed transferWithAuthorization against
 * the terms it was priced at, its cancellation by the authorizer, and the one read that confirms
 * a transaction used it.
 */
import { authorizationTypes } from '@x402/evm';
import { getAddress, isAddressEqual, parseEventLogs, verifyTypedData, type Address, type Hex, type LocalAccount } from 'viem';
import type { EvmChain } from '../../../chain/evm-chain';
import { fiatTokenAbi } from '../../../chain/network/fiat-token-abi';
import type { ExactPaymentHeader } from '../../x402/payment-header';
import type { AuthorizationTerms, UsdcDomain } from '../payment-scheme';
import { countingExpect, type Expect } from '../problems';

/**
 * Whether an EIP-3009 authorisation valid before `validBefore` can no longer be used in a block
 * of `timestamp`: FiatTokenV2's `_requireValidAuthorization` requires `now < validBefore`, so the
 * bound is exclusive and a block at `validBefore` already refuses it.
 */
export function eip3009Expired(timestamp: bigint, validBefore: bigint): boolean {
  return timestamp >= validBefore;
}

/** Exactly the price, from the agent to the payee, within Purser's window, signed by the agent under the token's domain. */
export async function checkEip3009Authorization(decoded: ExactPaymentHeader, terms: AuthorizationTerms, domain: UsdcDomain, expect: Expect): Promise<void> {
  const { authorization, signature } = decoded.payload;
  const { check, failed } = countingExpect(expect);
  check(isAddressEqual(authorization.from as Address, terms.from), `payer ${authorization.from}, not ${terms.from}`);
  check(isAddressEqual(authorization.to as Address, terms.payTo), `payee ${authorization.to}, not ${terms.payTo}`);
  check(BigInt(authorization.value) === terms.amount, `value ${authorization.value}, not ${terms.amount}`);
  check(BigInt(authorization.validBefore) <= terms.latestValidBefore, `valid until ${authorization.validBefore}, later than ${terms.latestValidBefore}`);
  check(BigInt(authorization.validAfter) <= BigInt(authorization.validBefore), 'its window is empty');
  if (failed() > 0) return;
  const valid = await verifyTypedData({
    address: terms.from,
    domain,
    types: authorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message: {
      from: getAddress(authorization.from),
      to: getAddress(authorization.to),
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
      nonce: authorization.nonce as Hex,
    },
    signature: signature as Hex,
  }).catch(() => false);
  expect(valid, `its signature is not ${terms.from}'s over these terms under ${domain.name} v${domain.version}`);
}

const cancelAuthorizationTypes = {
  CancelAuthorization: [
    { name: 'authorizer', type: 'address' },
    { name: 'nonce', type: 'bytes32' },
  ],
} as const;

/** Voids an unused authorisation on chain (EIP-3009 cancelAuthorization), signed by its authorizer. */
export async function cancelAuthorizationOnChain(chain: EvmChain, account: LocalAccount, nonce: Hex): Promise<Hex> {
  const domain = await chain.usdcDomain();
  const signature = await account.signTypedData({
    domain,
    types: cancelAuthorizationTypes,
    primaryType: 'CancelAuthorization',
    message: { authorizer: account.address, nonce },
  });
  return chain.cancelAuthorization({ authorizer: account.address, nonce, signature, sender: account });
}

/** True when `transactionHash` succeeded and the USDC contract logged AuthorizationUsed for this payer and nonce in it. */
export async function usedInTransaction(chain: EvmChain, transactionHash: Hex, payer: Address, nonce: Hex): Promise<boolean> {
  const receipt = await chain.publicClient.getTransactionReceipt({ hash: transactionHash }).catch(() => null);
  if (receipt?.status !== 'success') return false;
  return parseEventLogs({ abi: fiatTokenAbi, eventName: 'AuthorizationUsed', logs: receipt.logs }).some(
    (log) => isAddressEqual(log.address, chain.info.usdcAddress) && isAddressEqual(log.args.authorizer, payer) && log.args.nonce.toLowerCase() === nonce.toLowerCase(),
  );
}
