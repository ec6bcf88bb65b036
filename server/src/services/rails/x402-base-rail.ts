/**
 * x402 on Base: the agent pays a seller's HTTP 402 with an EIP-3009 authorisation signed by
 * its own EVM key (through `@x402/evm`), and the seller's facilitator submits it on chain.
 *
 * execute signs, once per intent, after the gate and the reserve have passed: the payment
 * header is recorded as a pending operation (details.paymentHeader) for /x402/sign-payment to
 * hand out. Nothing is signed before then, and the header pays only this requirement's
 * payee and amount. status follows the authorisation on chain: used -> settled (with the
 * transaction that used it), past its validBefore unused -> declined, so the workflow
 * releases the held funds only once the header can no longer move money.
 */
import { AppError, type RailName } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { x402Client } from '@x402/core/client';
import { decodePaymentSignatureHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { getAddress, isAddressEqual, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { EvmChain } from '../chain/evm-chain';
import { readAgentPrivateKey } from '../identity/agent-keys';
import { readOperation, recordOperationOnce, resolveOperation, toRailResult, type NewOperation, type Rail, type RailPayment, type StoredOperation } from './rail';

/** How often a signed, not yet used authorisation is looked up on chain. */
const AUTHORIZATION_POLL_MS = 1_000;
/** How far the server's clock may run ahead of a real chain's block times. */
const CLOCK_SKEW_S = 60n;
/** The sandbox chain runs on this machine's clock. */
const SANDBOX_CLOCK_SKEW_S = 1n;

export const X402_INTENT_REASON =
  "x402 payments are made through the agent API's /x402 endpoints, which answer a seller's 402 response; a payment intent without a seller's requirement cannot use this rail";

/** What the x402 endpoints put in an intent's metadata: the seller's requirement being paid. */
export interface X402IntentMetadata {
  x402_version: 1 | 2;
  requirement: Record<string, unknown> & { network: string; asset: string; payTo: string; maxTimeoutSeconds: number };
  resource?: { url: string; description?: string; mimeType?: string };
}

export function x402MetadataOf(metadata: Record<string, unknown>): X402IntentMetadata | null {
  const x402 = metadata.x402 as X402IntentMetadata | undefined;
  return x402 && typeof x402 === 'object' && x402.requirement && typeof x402.requirement === 'object' ? x402 : null;
}

/** Without a chain (tests of other rails) the rail exists but refuses every payment. */
export function createX402BaseRail(deps: { prisma: PrismaClient; x402?: { masterKey: Buffer; chain: EvmChain } }): Rail {
  const { prisma } = deps;
  const rail = { name: 'x402-base' as RailName, sandbox: deps.x402?.chain.info.sandbox ?? true };

  /** Why this rail cannot pay `payment`, or null when it can. */
  function refusal(payment: RailPayment): string | null {
    const x402 = x402MetadataOf(payment.metadata);
    if (!x402) return X402_INTENT_REASON;
    if (!deps.x402) return 'No EVM chain is configured in this process';
    const { chain } = deps.x402;
    if (!payment.payer.evmAddress) return 'The agent has no EVM wallet';
    const { requirement } = x402;
    const network = x402.x402_version === 1 ? chain.info.v1Name : chain.info.network;
    if (requirement.network !== network) return `This deployment pays on ${chain.info.network} (${chain.info.v1Name}), not ${requirement.network}`;
    if (!isAddressEqual(requirement.asset as Address, chain.info.usdcAddress)) return `Only USDC (${chain.info.usdcAddress}) is paid over x402`;
    if (!payment.toAddress || !isAddressEqual(requirement.payTo as Address, payment.toAddress as Address)) return "The requirement's payTo does not match the payment's recipient";
    if (requirementAmount(requirement) !== payment.amount) return "The requirement's amount does not match the payment's amount";
    return null;
  }

  async function sign(payment: RailPayment, x402: X402IntentMetadata) {
    const key = await readAgentPrivateKey(prisma, deps.x402!.masterKey, payment.payer.agentId, 'evm');
    const account = privateKeyToAccount(`0x${key.toString('hex')}`);
    key.fill(0);
    // Spending rules and policies were enforced by the payment workflow before this step.
    const client = registerExactEvmScheme(new x402Client(), { signer: account }).setSpendControls(false);
    const paymentRequired = {
      x402Version: x402.x402_version,
      accepts: [x402.requirement],
      ...(x402.resource ? { resource: x402.resource } : {}),
    } as unknown as PaymentRequired;
    const payload = await client.createPaymentPayload(paymentRequired);
    return encodePaymentSignatureHeader(payload);
  }

  async function settleIfUsed(operation: StoredOperation): Promise<StoredOperation> {
    if (operation.status !== 'pending') return operation;
    const { chain } = deps.x402!;
    const payer = operation.details.payer as Address;
    const nonce = operation.details.nonce as Hex;
    if (await chain.authorizationUsed(payer, nonce)) {
      const transaction = await chain.findAuthorizationTransaction(payer, nonce, BigInt(String(operation.details.fromBlock)));
      return resolveOperation(prisma, operation, { status: 'settled', settledAt: new Date() }, { transactionHash: transaction });
    }
    // Expired once the chain's time has passed validBefore. A quiet chain (anvil mines only on
    // demand) may show an old block; any block mined later is at least as late as the wall
    // clock, so the clock past validBefore, by a margin for skew, is as good.
    const validBefore = BigInt(String(operation.details.validBefore));
    const { timestamp } = await chain.latestBlock();
    const clock = BigInt(Math.floor(Date.now() / 1000)) - (chain.info.sandbox ? SANDBOX_CLOCK_SKEW_S : CLOCK_SKEW_S);
    if (timestamp >= validBefore || clock >= validBefore) {
      return resolveOperation(prisma, operation, {
        status: 'declined',
        declineCode: 'authorization_expired',
        declineMessage: 'The seller did not redeem the signed payment before it expired; nothing moved on chain',
      });
    }
    return operation;
  }

  function withPollTime(operation: StoredOperation): StoredOperation {
    return operation.status === 'pending' ? { ...operation, settleAfter: new Date(Date.now() + AUTHORIZATION_POLL_MS) } : operation;
  }

  return {
    ...rail,
    // EIP-3009 transferWithAuthorization is a USDC feature.
    currencies: ['USDC'],

    async quote(payment) {
      const reason = refusal(payment);
      return { rail: 'x402-base', available: reason === null, ...(reason ? { reason } : {}), fee: 0n, estimatedSettlementMs: 2_000, sandbox: rail.sandbox };
    },

    async execute(payment) {
      const reason = refusal(payment);
      if (reason) throw new AppError('RAIL_UNAVAILABLE', reason);
      const { chain } = deps.x402!;
      const x402 = x402MetadataOf(payment.metadata)!;
      const payer = getAddress(payment.payer.evmAddress!);
      const { operation } = await recordOperationOnce(prisma, rail, payment.intentId, async (): Promise<NewOperation> => {
        const onChain = await chain.usdcBalanceOf(payer);
        if (onChain < payment.amount) {
          return {
            reference: `x402-refused-${payment.intentId}`,
            status: 'declined',
            declineCode: 'insufficient_onchain_balance',
            declineMessage: `The agent's wallet ${payer} holds ${onChain} atomic USDC on ${chain.info.network}, less than the ${payment.amount} this payment needs; fund the agent`,
            details: { network: chain.info.network, payer },
          };
        }
        const { number: fromBlock } = await chain.latestBlock();
        const header = await sign(payment, x402);
        const { payload } = decodePaymentSignatureHeader(header) as unknown as { payload: { authorization: { nonce: Hex; validBefore: string } } };
        return {
          reference: payload.authorization.nonce,
          status: 'pending',
          settleAfter: new Date(Date.now() + AUTHORIZATION_POLL_MS),
          details: {
            network: chain.info.network,
            x402Version: x402.x402_version,
            payer,
            payTo: getAddress(payment.toAddress!),
            nonce: payload.authorization.nonce,
            validBefore: payload.authorization.validBefore,
            fromBlock: fromBlock.toString(),
            paymentHeader: header,
            transactionHash: null,
          },
        };
      });
      return toRailResult(withPollTime(await settleIfUsed(operation)));
    },

    async status(intentId) {
      const operation = await readOperation(prisma, intentId, 'x402-base');
      return toRailResult(withPollTime(await settleIfUsed(operation)));
    },
  };
}

/** The requirement's price in atomic units: v2 `amount`, v1 `maxAmountRequired`. */
export function requirementAmount(requirement: Record<string, unknown>): bigint {
  const value = requirement.amount ?? requirement.maxAmountRequired;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) throw new AppError('VALIDATION_FAILED', 'The requirement has no amount in atomic units');
  return BigInt(value);
}
