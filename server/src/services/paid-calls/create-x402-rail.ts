/**
 * The x402-base rail: the agent pays a seller's HTTP 402 with an authorisation signed by its own
 * EVM key, under the scheme the seller asked for. A thin dispatcher: it prices the intent's
 * requirement again (front/price-requirement.ts), refuses what it cannot pay before anything is
 * signed (an agent no longer active, on-chain funds short of the price), and hands the rest to
 * the scheme (schemes/lookup.ts): open the operation (sign, or record a channel), follow it on
 * chain, void it. Nothing is signed before the gate and the hold have passed; the operation is
 * recorded once per intent, so a retried step gets the first one back.
 */
import { AppError, X402_INTENT_REASON } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { getAddress, isAddress, isAddressEqual, type Address } from 'viem';
import type { EvmChain } from '../chain/evm-chain';
import { readAgentEvmAccount } from '../identity/agent-keys';
import { readOperation, recordOperationOnce, toRailResult, type NewOperation, type StoredOperation } from '../rail-operations/operation-record';
import type { Rail, RailPayment } from '../rail-operations/rail';
import { priceRequirement } from './front/price-requirement';
import { DEFAULT_X402_MAX_VALIDITY_SECONDS } from './schemes/chain-clock';
import { recordWhileActive } from './front/record-while-active';
import { refusedOperation } from './schemes/authorization';
import { schemeFor, schemeNamed } from './schemes/lookup';
import type { PricedRequirement, SchemeContext } from './schemes/payment-scheme';
import { x402MetadataOf, type X402IntentMetadata } from './x402/intent-metadata';

/** How long a sandbox shortfall on chain is read again before the payment is declined. */
const SANDBOX_BALANCE_WAIT_MS = 5_000;
const SANDBOX_BALANCE_POLL_MS = 250;

export interface X402RailDeps {
  prisma: PrismaClient;
  masterKey: Buffer;
  chain: EvmChain;
  /** The longest window an authorisation is signed for (X402_MAX_VALIDITY_SECONDS). */
  maxValiditySeconds?: number;
}

export function createX402BaseRail(deps: X402RailDeps): Rail {
  const { prisma, chain } = deps;
  const context: SchemeContext = { prisma, chain, masterKey: deps.masterKey };
  const rail = { name: 'x402-base' as const, sandbox: chain.info.sandbox };
  const maxValiditySeconds = deps.maxValiditySeconds ?? DEFAULT_X402_MAX_VALIDITY_SECONDS;

  /** The requirement as it will be signed, or why this rail cannot pay `payment`. */
  function priced(payment: RailPayment): { price: PricedRequirement; x402: X402IntentMetadata } | { reason: string } {
    const x402 = x402MetadataOf(payment.metadata);
    if (!x402) return { reason: X402_INTENT_REASON };
    if (!payment.payer.evmAddress) return { reason: 'The agent has no EVM wallet' };
    let price: PricedRequirement;
    try {
      price = priceRequirement(x402.requirement, x402.x402_version, chain.info, maxValiditySeconds);
    } catch (error) {
      if (error instanceof AppError) return { reason: error.message };
      throw error;
    }
    if (!payment.toAddress || !isAddress(payment.toAddress) || !isAddressEqual(price.payTo, payment.toAddress)) return { reason: "The requirement's payTo does not match the payment's recipient" };
    if (price.amount !== payment.amount) return { reason: "The requirement's amount does not match the payment's amount" };
    return { price, x402 };
  }

  /**
   * The payer's USDC on chain. In the sandbox a shortfall is read again for a few seconds before
   * it counts: a sandbox chain restarted from its state file gives back the mints it lost within
   * moments (its journal replay), and an agent funded in the ledger is minted the same amount.
   */
  async function onChainBalanceCovering(payer: Address, amount: bigint): Promise<bigint> {
    const deadline = Date.now() + (chain.info.sandbox ? SANDBOX_BALANCE_WAIT_MS : 0);
    for (;;) {
      const balance = await chain.usdcBalanceOf(payer);
      if (balance >= amount || Date.now() >= deadline) return balance;
      await new Promise((resolve) => setTimeout(resolve, SANDBOX_BALANCE_POLL_MS));
    }
  }

  /** Its scheme's state recorded in the operation, then the scheme advances it. */
  const schemeOf = (operation: StoredOperation) => schemeNamed(operation.details.scheme);

  function follow(operation: StoredOperation): Promise<StoredOperation> {
    if (operation.status !== 'pending') return Promise.resolve(operation);
    return schemeOf(operation).follow(context, operation);
  }

  function withNextLook(operation: StoredOperation): StoredOperation {
    if (operation.status !== 'pending') return operation;
    return { ...operation, settleAfter: schemeOf(operation).nextLook(context, operation, Date.now()) };
  }

  return {
    ...rail,
    // EIP-3009 transferWithAuthorization is a USDC feature.
    currencies: ['USDC'],

    async quote(payment) {
      const outcome = priced(payment);
      const reason = 'reason' in outcome ? outcome.reason : null;
      return { rail: 'x402-base', available: reason === null, ...(reason ? { reason } : {}), fee: 0n, estimatedSettlementMs: 2_000, sandbox: rail.sandbox };
    },

    async execute(payment) {
      const outcome = priced(payment);
      if ('reason' in outcome) throw new AppError('RAIL_UNAVAILABLE', outcome.reason);
      const { price, x402 } = outcome;
      const payer = getAddress(payment.payer.evmAddress!);
      const network = chain.info.network;
      const { operation } = await recordOperationOnce(prisma, rail, payment.intentId, async (): Promise<NewOperation> => {
        const { status: agentStatus } = await prisma.agent.findUniqueOrThrow({ where: { id: payment.payer.agentId }, select: { status: true } });
        if (agentStatus !== 'active') return refusedOperation(payment.intentId, 'agent_not_active', `The agent is ${agentStatus}; nothing was signed`, { network, payer });
        const onChain = await onChainBalanceCovering(payer, payment.amount);
        if (onChain < payment.amount) {
          return refusedOperation(
            payment.intentId,
            'insufficient_onchain_balance',
            `The agent's wallet ${payer} holds ${onChain} atomic USDC on ${network}, less than the ${payment.amount} this payment needs; fund the agent`,
            { network, payer },
          );
        }
        const [{ number: fromBlock }, domain, { idempotencyKey }, account] = await Promise.all([
          chain.latestBlock(),
          chain.usdcDomain(),
          prisma.paymentIntent.findUniqueOrThrow({ where: { id: payment.intentId }, select: { idempotencyKey: true } }),
          readAgentEvmAccount(prisma, deps.masterKey, payment.payer.agentId),
        ]);
        return schemeFor(price.scheme).open(context, { network, payment, price, x402, payer, account, domain, fromBlock, idempotencyKey });
      }, { recordIn: recordWhileActive(payment.payer.agentId, payment.intentId, { network, payer }) });
      // The chain may be unreachable right after signing: the operation is recorded, and the
      // workflow follows it (without an attempt limit) instead of failing the step.
      return toRailResult(withNextLook(await follow(operation).catch(() => operation)));
    },

    async status(intentId) {
      const operation = await readOperation(prisma, intentId, 'x402-base');
      return toRailResult(withNextLook(await follow(operation)));
    },

    /**
     * Ends a pending payment early: what was signed is voided on chain where the agent can (a
     * channel is closed instead), then the chain says how it ended.
     */
    async abandon(intentId) {
      const operation = await readOperation(prisma, intentId, 'x402-base');
      if (operation.status !== 'pending') return toRailResult(operation);
      const { agentId } = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { agentId: true } });
      return toRailResult(withNextLook(await schemeOf(operation).cancel(context, operation, agentId)));
    },
  };
}
