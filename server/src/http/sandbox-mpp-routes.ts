/**
 * The MPP (Machine Payments Protocol) side of the sandbox's demo paid API: the official `mppx`
 * seller (its Hono middleware and EVM `charge` method, an EIP-3009 transferWithAuthorization in
 * sandbox USDC) in front of the endpoints sandbox-paid-routes.ts marks as paid with MPP. An
 * endpoint offers MPP alone, or MPP and mppx's own x402 `exact` offer beside it (mppx's default:
 * the same 402 carries `WWW-Authenticate: Payment` and `PAYMENT-REQUIRED`, and either payment
 * settles the same way).
 *
 * mppx checks a credential and leaves settlement to the seller: the demo seller (anvil's account
 * 1, the payee) submits the authorisation itself and names the mined transaction in the
 * `Payment-Receipt`.
 */
import { randomBytes } from 'node:crypto';
import { eip3009ABI } from '@x402/evm';
import type { MiddlewareHandler } from 'hono';
import { Errors } from 'mppx';
import type { charge as EvmCharge } from 'mppx/evm/server';
import { Mppx, evm } from 'mppx/hono';
import { Transport } from 'mppx/server';
import type { Address, Hex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import type { EvmChain } from '../services/chain/evm-chain';
import { createSerialWallet } from '../services/chain/network/serial-wallet';
import { ANVIL_MNEMONIC } from '../services/chain/sandbox/start-sandbox-chain';

/** How an endpoint is paid with MPP: MPP alone, or MPP with mppx's x402 offer beside it. */
export type MppOffer = 'only' | 'with-x402';

export interface SandboxMppSeller {
  /** The middleware that asks `price` ('$0.01') for the route it guards. */
  charge(offer: MppOffer, price: string, description: string): MiddlewareHandler;
}

/** What a 402 of each kind of MPP endpoint means, for the OpenAPI document. */
export const MPP_PAYMENT_REQUIRED: Record<MppOffer, string> = {
  only: 'Payment required (MPP): the WWW-Authenticate: Payment header carries the challenge (method "evm", intent "charge"); retry with the signed credential in Authorization: Payment, or let an agent pay through /pay/fetch',
  'with-x402':
    'Payment required (MPP or x402): WWW-Authenticate: Payment carries the MPP challenge and PAYMENT-REQUIRED (base64 JSON) the x402 exact offer; pay either (Authorization: Payment or PAYMENT-SIGNATURE), or let an agent pay through /pay/fetch',
};

/**
 * The demo seller's MPP seller, which settles on the sandbox chain from its own account. It is
 * built on the first paid call: building the paid API reads nothing from the chain.
 */
export function createSandboxMppSeller(chain: EvmChain, payTo: Address): SandboxMppSeller {
  let sellers: ReturnType<typeof buildSellers> | null = null;
  const ready = () =>
    (sellers ??= buildSellers(chain, payTo).catch((error: unknown) => {
      sellers = null;
      throw error;
    }));
  return {
    charge: (offer, price, description) => async (c, next) => (await ready())[offer].charge({ amount: price.replace(/^\$/, ''), description })(c, next),
  };
}

async function buildSellers(chain: EvmChain, payTo: Address) {
  const { name, version } = await chain.usdcDomain();
  const seller = createSerialWallet(mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 1 }), chain.publicClient.chain!, chain.rpcUrl);

  const settle: EvmCharge.SettleAuthorization = async ({ payload }) => {
    const { from, to, value, validAfter, validBefore, nonce, signature } = payload;
    let transaction: Hex;
    try {
      transaction = await seller.send((wallet) =>
        wallet.writeContract({
          address: chain.info.usdcAddress,
          abi: eip3009ABI,
          functionName: 'transferWithAuthorization',
          args: [from as Address, to as Address, BigInt(value), BigInt(validAfter), BigInt(validBefore), nonce as Hex, signature as Hex],
        }),
      );
    } catch (error) {
      // mppx leaves replays to the settler: a used nonce (or a short balance) reverts in simulation.
      throw new Errors.VerificationFailedError({ reason: `the chain refused the authorization: ${(error as Error).message.split('\n')[0]}` });
    }
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash: transaction });
    if (receipt.status !== 'success') throw new Errors.VerificationFailedError({ reason: `the transfer reverted (${transaction})` });
    return { reference: transaction };
  };

  const charge = evm.charge({ currency: chain.info.usdcAddress, chainId: chain.info.chainId, decimals: 6, authorization: { name, version }, recipient: payTo, settle });
  // Challenges are bound (HMAC) to a key this process alone knows; the realm names the sandbox.
  return {
    'with-x402': Mppx.create({ methods: [charge], realm: 'purser-sandbox', secretKey: randomBytes(32).toString('base64') }),
    // mppx's plain HTTP transport speaks the Payment scheme alone: no x402 offer, no x402 payment read.
    only: Mppx.create({ methods: [{ ...charge, transport: Transport.http() }], realm: 'purser-sandbox', secretKey: randomBytes(32).toString('base64') }),
  };
}
