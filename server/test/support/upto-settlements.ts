/**
 * For `upto` suites: a signed payment header's permit read back, and the proxy's settle called
 * directly by the facilitator the permit names, as a seller that runs its own facilitator does
 * (with a fixed gas limit, so a revert is mined and seen rather than refused by estimation).
 */
import { decodePaymentSignatureHeader } from '@x402/core/http';
import { x402UptoPermit2ProxyABI, x402UptoPermit2ProxyAddress } from '@x402/evm';
import { encodeFunctionData, type Address, type Hex, type WalletClient } from 'viem';

export interface SignedPermit {
  from: Address;
  to: Address;
  facilitator: Address;
  maximum: bigint;
  nonce: bigint;
  deadline: bigint;
  args: readonly [
    { permitted: { token: Address; amount: bigint }; nonce: bigint; deadline: bigint },
    Address,
    { to: Address; facilitator: Address; validAfter: bigint },
    Hex,
  ];
}

/** The permit an `upto` payment header carries. */
export function permitOf(header: string): SignedPermit {
  const { payload } = decodePaymentSignatureHeader(header) as unknown as {
    payload: {
      permit2Authorization: { from: Address; permitted: { token: Address; amount: string }; nonce: string; deadline: string; witness: { to: Address; facilitator: Address; validAfter: string } };
      signature: Hex;
    };
  };
  const { permit2Authorization: permit, signature } = payload;
  return {
    from: permit.from,
    to: permit.witness.to,
    facilitator: permit.witness.facilitator,
    maximum: BigInt(permit.permitted.amount),
    nonce: BigInt(permit.nonce),
    deadline: BigInt(permit.deadline),
    args: [
      { permitted: { token: permit.permitted.token, amount: BigInt(permit.permitted.amount) }, nonce: BigInt(permit.nonce), deadline: BigInt(permit.deadline) },
      permit.from,
      { to: permit.witness.to, facilitator: permit.witness.facilitator, validAfter: BigInt(permit.witness.validAfter) },
      signature,
    ],
  };
}

/** The proxy's `settle(permit, amount, owner, witness, signature)` calldata. */
export function uptoSettleData(permit: SignedPermit, amount: bigint): Hex {
  const [terms, owner, witness, signature] = permit.args;
  return encodeFunctionData({ abi: x402UptoPermit2ProxyABI, functionName: 'settle', args: [terms, amount, owner, witness, signature] });
}

/** Sends the proxy's settle of `amount` from `wallet` (the permit's facilitator); resolves with the transaction, mined or not. */
export function sendUptoSettle(wallet: WalletClient, permit: SignedPermit, amount: bigint, options: { nonce?: number } = {}): Promise<Hex> {
  return wallet.sendTransaction({
    account: wallet.account!,
    chain: wallet.chain,
    to: x402UptoPermit2ProxyAddress,
    data: uptoSettleData(permit, amount),
    gas: 300_000n,
    ...(options.nonce === undefined ? {} : { nonce: options.nonce }),
  });
}
