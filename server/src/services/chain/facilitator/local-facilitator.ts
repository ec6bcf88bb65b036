/**
 * The in-process x402 facilitator, with the official EVM schemes of @x402/evm: "exact" (EIP-3009
 * transferWithAuthorization), "upto" (a Permit2 witness transfer through x402's upto proxy, for
 * any amount up to the signed maximum) and "batch-settlement" (payment channels: it relays
 * deposits, voucher claims, settlements and refunds to x402's batch-settlement contract). It
 * verifies payments against `publicClient` and settles them from `wallet`, which pays the gas and
 * is the facilitator an upto payer names in what it signs. It takes x402 v2 payloads (CAIP-2
 * `network`), and v1 payloads (`v1Name`) of the exact scheme, for the one chain its clients are
 * connected to; @x402/evm's registerExactEvmScheme would also claim v1 support for every other
 * chain @x402/evm knows, which it cannot settle on. Upto and batch-settlement exist in x402 v2 only,
 * and need their contracts on the chain (the sandbox installs them).
 *
 * Batch-settlement runs without a receiver authorizer of the facilitator's own: a seller signs its
 * claims and refunds with its own `receiverAuthorizerSigner`. A facilitator that offered to sign
 * them would have to make sure each refund comes from the seller that opened the channel (x402's
 * scheme text), which nothing here could check.
 */
import { x402Facilitator } from '@x402/core/facilitator';
import type { FacilitatorClient } from '@x402/core/server';
import type { Network, SupportedResponse } from '@x402/core/types';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/facilitator';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { ExactEvmSchemeV1 } from '@x402/evm/exact/v1/facilitator';
import { UptoEvmScheme } from '@x402/evm/upto/facilitator';
import type { PublicClient, ReadContractParameters, VerifyTypedDataParameters, WriteContractParameters } from 'viem';
import type { EvmNetworkInfo } from '../evm-chain';
import type { SerialWallet } from '../network/serial-wallet';

export interface LocalFacilitatorDeps {
  info: Pick<EvmNetworkInfo, 'network' | 'v1Name'>;
  publicClient: PublicClient;
  wallet: SerialWallet;
}

export function createLocalFacilitator({ info, publicClient, wallet }: LocalFacilitatorDeps): FacilitatorClient {
  // The schemes hand over ABIs and typed data as `unknown`; viem checks them at run time.
  const signer = toFacilitatorEvmSigner({
    address: wallet.address,
    getCode: (args) => publicClient.getCode(args),
    // Reads run as the facilitator: upto simulates its settlement with one, and the proxy lets
    // only the facilitator the payer named settle. Batch-settlement simulates its calls the same way.
    readContract: (args) => publicClient.readContract({ account: wallet.address, ...args } as ReadContractParameters),
    verifyTypedData: (args) => publicClient.verifyTypedData(args as VerifyTypedDataParameters),
    writeContract: (args) => wallet.send((client) => client.writeContract(args as WriteContractParameters)),
    sendTransaction: (args) => wallet.send((client) => client.sendTransaction(args)),
    waitForTransactionReceipt: (args) => publicClient.waitForTransactionReceipt(args),
  });
  const facilitator = new x402Facilitator()
    .register(info.network, new ExactEvmScheme(signer))
    .register(info.network, new UptoEvmScheme(signer))
    .register(info.network, new BatchSettlementEvmScheme(signer))
    // v1 names networks without a CAIP-2 namespace; the registry's type predates that.
    .registerV1(info.v1Name as Network, new ExactEvmSchemeV1(signer));
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    // x402Facilitator answers synchronously, and types its kinds' networks as plain strings
    // because v1 names (`base-sepolia`) are not CAIP-2.
    getSupported: async () => facilitator.getSupported() as SupportedResponse,
  };
}
