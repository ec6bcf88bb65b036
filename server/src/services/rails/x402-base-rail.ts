/**
 * x402 on Base: the agent pays a seller's HTTP 402 with an authorisation signed by its own EVM
 * key (through `@x402/evm`), and the seller's facilitator submits it on chain: for the `exact`
 * scheme an EIP-3009 authorisation of the price; for `upto` a Permit2 authorisation of a maximum,
 * of which the seller settles what was used.
 *
 * execute signs, once per intent, after the gate and the reserve have passed: the payment
 * header is recorded as a pending operation (details.paymentHeader) for /x402/sign-payment to
 * hand out. Nothing is signed before then, and the header pays only this requirement's
 * payee and amount, for at most the deployment's window (x402-authorization.ts); it is decoded
 * and checked against the intent before it is stored. status follows the authorisation on
 * chain: used -> settled (with the transaction that used it), cancelled on chain or past its
 * validBefore unused -> declined, so the workflow releases the held funds only once the header
 * can no longer move money. abandon cancels a pending authorisation on chain (EIP-3009
 * cancelAuthorization) when the payment must end early.
 *
 * `upto` differs in three places. Before signing, the agent's USDC allowance to Permit2 is set to
 * what its open `upto` payments hold (this one included), never more (an EIP-2612 permit the
 * chain's gas payer submits). Settled is read from the chain: Permit2's nonce used, and the USDC
 * the settling transaction moved to the payee (`capturedAmount`, which the capture pays, returning
 * the rest of the hold). Abandoning invalidates the Permit2 nonce, sent by the agent.
 *
 * `batch-settlement` is a channel (x402-channels.ts): the intent's amount is the deposit, and
 * execute signs nothing. It records the channel (its config, with a salt of its own, and its id)
 * as a pending operation that the agent's calls sign vouchers against; the deposit is signed with
 * the first voucher. The operation stays pending while the channel is open. Once the agent asks
 * to close it (details.closeRequested), the chain decides: when the channel holds nothing the
 * seller has not claimed (the seller refunded the rest), it is settled for what the seller
 * claimed (`capturedAmount`), or declined when that is nothing. The contract refuses claims above
 * what the agent's vouchers signed, so the capture is never more than the vouchers.
 */
import { AppError, type RailName } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { getAddress, isAddress, isAddressEqual, isHex, parseEventLogs, type Address, type Hex } from 'viem';
import { fiatTokenAbi } from '../chain/fiat-token-abi';
import type { EvmChain } from '../chain/evm-chain';
import { readAgentEvmAccount } from '../identity/agent-keys';
import { oneAtATimeBy } from '../../one-at-a-time';
import {
  assertSignedAsPriced,
  cancelAuthorizationOnChain,
  DEFAULT_X402_MAX_VALIDITY_SECONDS,
  paymentIdentifierFor,
  priceRequirement,
  setPermit2AllowanceOnChain,
  signX402Authorization,
  type AuthorizationTerms,
  type PricedRequirement,
} from '../x402/x402-authorization';
import { paymentReference } from '../x402/x402-messages';
import { computeChannelId, readChannelBalanceAndTotalClaimed } from '@x402/evm/batch-settlement/client';
import type { ClientEvmSigner } from '@x402/evm';
import type { LocalAccount } from 'viem/accounts';
import { randomBytes } from 'node:crypto';
import { PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import { finalizeChannelWithdrawal, initiateChannelWithdrawal, pendingChannelWithdrawal } from '../chain/channel-withdrawal';
import { readOperation, recordOperationOnce, resolveOperation, toRailResult, type NewOperation, type Rail, type RailDetails, type RailPayment, type StoredOperation } from './rail';

/** How long a closing channel's seller has to refund before the agent withdraws on chain itself. */
const REFUND_GRACE_S = 120n;
/**
 * A signed, not yet used authorisation is looked up on chain again after half its age, from
 * 1 s to 30 s, and once more when its window closes: the seller's call signals the workflow
 * when it redeems, so the looks only catch what nobody announced, and a seller that redeems
 * minutes late costs a dozen looks in the workflow's history, not one a second.
 */
const AUTHORIZATION_POLL_MS = 1_000;
const MAX_AUTHORIZATION_POLL_MS = 30_000;
/**
 * How often an open channel is looked at without a signal: it may stay open for hours, and its
 * close signals the workflow, so the history is not flooded with a look each second.
 */
const CHANNEL_POLL_MS = 30_000;
/** How far the server's clock may run ahead of a real chain's block times. */
const CLOCK_SKEW_S = 60n;
/** The sandbox chain runs on this machine's clock. */
const SANDBOX_CLOCK_SKEW_S = 1n;
/** How long a sandbox shortfall on chain is read again before the payment is declined. */
const SANDBOX_BALANCE_WAIT_MS = 5_000;
const SANDBOX_BALANCE_POLL_MS = 250;

export const X402_INTENT_REASON =
  "x402 payments are made through the agent API's /x402 endpoints, which answer a seller's 402 response; a payment intent without a seller's requirement cannot use this rail";

/** What the x402 endpoints put in an intent's metadata: the seller's requirement being paid. */
export interface X402IntentMetadata {
  x402_version: 1 | 2;
  requirement: Record<string, unknown> & { network: string; asset: string; payTo: string; maxTimeoutSeconds: number };
  resource?: { url: string; description?: string; mimeType?: string };
  /** True when Purser fetched `resource.url` itself (/x402/fetch): only then is its host the seller's. */
  url_fetched?: boolean;
  /** x402 v2: the seller's payment-identifier declaration, echoed with the payment's identifier. */
  extensions?: Record<string, unknown>;
  /** x402 v2: who signed the seller's offer (offer-receipt); its receipt must be signed by the same. */
  offer_signer?: string;
}

export function x402MetadataOf(metadata: Record<string, unknown>): X402IntentMetadata | null {
  const x402 = metadata.x402 as X402IntentMetadata | undefined;
  return x402 && typeof x402 === 'object' && x402.requirement && typeof x402.requirement === 'object' ? x402 : null;
}

export interface X402RailDeps {
  masterKey: Buffer;
  chain: EvmChain;
  /** The longest window an authorisation is signed for (X402_MAX_VALIDITY_SECONDS). */
  maxValiditySeconds?: number;
}

/** Without a chain (tests of other rails) the rail exists but refuses every payment. */
export function createX402BaseRail(deps: { prisma: PrismaClient; x402?: X402RailDeps }): Rail {
  const { prisma } = deps;
  const rail = { name: 'x402-base' as RailName, sandbox: deps.x402?.chain.info.sandbox ?? true };
  const maxValiditySeconds = deps.x402?.maxValiditySeconds ?? DEFAULT_X402_MAX_VALIDITY_SECONDS;

  /** The requirement as it will be signed, or why this rail cannot pay `payment`. */
  function priced(payment: RailPayment): { priced: PricedRequirement; x402: X402IntentMetadata } | { reason: string } {
    const x402 = x402MetadataOf(payment.metadata);
    if (!x402) return { reason: X402_INTENT_REASON };
    if (!deps.x402) return { reason: 'No EVM chain is configured in this process' };
    if (!payment.payer.evmAddress) return { reason: 'The agent has no EVM wallet' };
    let price: PricedRequirement;
    try {
      price = priceRequirement(x402.requirement, x402.x402_version, deps.x402.chain.info, maxValiditySeconds);
    } catch (error) {
      if (error instanceof AppError) return { reason: error.message };
      throw error;
    }
    if (!payment.toAddress || !isAddress(payment.toAddress) || !isAddressEqual(price.payTo, payment.toAddress)) return { reason: "The requirement's payTo does not match the payment's recipient" };
    if (price.amount !== payment.amount) return { reason: "The requirement's amount does not match the payment's amount" };
    return { priced: price, x402 };
  }

  async function agentAccount(agentId: string, options: { evenIfRevoked?: boolean } = {}) {
    return readAgentEvmAccount(prisma, deps.x402!.masterKey, agentId, options);
  }

  /**
   * The payer's USDC on chain. In the sandbox a shortfall is read again for a few seconds before
   * it counts: a sandbox chain restarted from its state file gives back the mints it lost within
   * moments (its journal replay), and an agent funded in the ledger is minted the same amount.
   */
  async function onChainBalanceCovering(payer: Address, amount: bigint): Promise<bigint> {
    const { chain } = deps.x402!;
    const deadline = Date.now() + (chain.info.sandbox ? SANDBOX_BALANCE_WAIT_MS : 0);
    for (;;) {
      const balance = await chain.usdcBalanceOf(payer);
      if (balance >= amount || Date.now() >= deadline) return balance;
      await new Promise((resolve) => setTimeout(resolve, SANDBOX_BALANCE_POLL_MS));
    }
  }

  /** Resolves a pending operation once the chain says how it ended: used, cancelled or expired. */
  async function follow(operation: StoredOperation): Promise<StoredOperation> {
    if (operation.status !== 'pending') return operation;
    if (operation.details.scheme === 'upto') return followUpto(operation);
    if (operation.details.scheme === 'batch-settlement') return followChannel(operation);
    const { chain } = deps.x402!;
    const payer = operation.details.payer as Address;
    const nonce = operation.details.nonce as Hex;
    if (await chain.authorizationUsed(payer, nonce)) {
      // A sandbox chain restarted from its state file replays what it lost, possibly into lower
      // block numbers than the one recorded at signing, and may not have reached that block yet
      // (the node refuses the search): there, its whole (short) history is searched instead.
      const fromBlock = BigInt(String(operation.details.fromBlock));
      const recorded = await chain.authorizationOutcome(payer, nonce, fromBlock).catch((error: unknown) => {
        if (chain.info.sandbox) return { used: null, cancelled: null };
        throw error;
      });
      const { used, cancelled } = recorded.used || recorded.cancelled || !chain.info.sandbox ? recorded : await chain.authorizationOutcome(payer, nonce, 0n);
      if (used) return resolveOperation(prisma, operation, { status: 'settled', settledAt: new Date() }, { transactionHash: used });
      if (cancelled) {
        return resolveOperation(
          prisma,
          operation,
          { status: 'declined', declineCode: 'authorization_cancelled', declineMessage: 'The signed payment was cancelled on chain before the seller redeemed it; nothing moved' },
          { cancelTransactionHash: cancelled },
        );
      }
      // The state says it ended but its log is not visible yet: look again.
      return operation;
    }
    return expiredOrPending(operation);
  }

  /**
   * Expired once the chain's time has passed validBefore. A quiet chain (anvil mines only on
   * demand) may show an old block; any block mined later is at least as late as the wall clock,
   * so the clock past validBefore, by a margin for skew, is as good.
   */
  async function expiredOrPending(operation: StoredOperation): Promise<StoredOperation> {
    const { chain } = deps.x402!;
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

  /**
   * An `upto` authorisation ends when its Permit2 nonce is used: by the seller's settlement (the
   * chain says how much moved) or by the agent's invalidation (nothing moved); or when its
   * deadline passes unused. Once it ended, the agent's Permit2 allowance shrinks to what its
   * other open `upto` payments hold.
   */
  async function followUpto(operation: StoredOperation): Promise<StoredOperation> {
    const { chain } = deps.x402!;
    const payer = operation.details.payer as Address;
    const nonce = BigInt(String(operation.details.nonce));
    if (!(await chain.permit2NonceUsed(payer, nonce))) return afterUpto(await expiredOrPending(operation));
    const search = { owner: payer, payTo: operation.details.payTo as Address, nonce };
    const fromBlock = BigInt(String(operation.details.fromBlock));
    // As for `exact`: a restarted sandbox chain may have replayed its history below fromBlock.
    const settlement =
      (await chain.uptoSettlement({ ...search, fromBlock }).catch((error: unknown) => {
        if (chain.info.sandbox) return null;
        throw error;
      })) ?? (chain.info.sandbox ? await chain.uptoSettlement({ ...search, fromBlock: 0n }) : null);
    let ended: StoredOperation;
    if (settlement) {
      ended = await resolveOperation(prisma, operation, { status: 'settled', settledAt: new Date() }, { transactionHash: settlement.transactionHash, capturedAmount: settlement.amount.toString() });
    } else if (typeof operation.details.cancelTransactionHash === 'string') {
      ended = await resolveOperation(prisma, operation, {
        status: 'declined',
        declineCode: 'authorization_cancelled',
        declineMessage: 'The signed payment was cancelled on chain before the seller redeemed it; nothing moved',
      });
    } else {
      // The nonce is used but its transfer is not visible yet: look again.
      return operation;
    }
    return afterUpto(ended);
  }

  /**
   * A channel ends when the agent asked to close it and the chain shows nothing left that the
   * seller has not claimed (balance == totalClaimed: the seller refunded the rest): settled for
   * what it claimed, declined when nothing. A deposit that never landed ends once its
   * authorisation expired (it can no longer move money); before then, the channel waits.
   */
  async function followChannel(operation: StoredOperation): Promise<StoredOperation> {
    const { chain } = deps.x402!;
    const { details } = operation;
    const depositExpired = () => {
      const validBefore = details.depositValidBefore;
      const clock = BigInt(Math.floor(Date.now() / 1000)) - (chain.info.sandbox ? SANDBOX_CLOCK_SKEW_S : CLOCK_SKEW_S);
      return typeof validBefore !== 'string' || clock >= BigInt(validBefore);
    };
    if (details.closeRequested !== true) {
      // Nothing to look at on chain until the deposit's window has passed.
      if (details.depositSigned !== true || !depositExpired()) return operation;
    }
    const reader = { readContract: (args: Parameters<typeof chain.publicClient.readContract>[0]) => chain.publicClient.readContract(args) } as unknown as ClientEvmSigner;
    const [balance, totalClaimed] = await readChannelBalanceAndTotalClaimed(reader, details.channelId as Hex);
    if (details.closeRequested !== true) {
      if (balance > 0n) return operation;
      return resolveOperation(prisma, operation, { status: 'declined', declineCode: 'deposit_expired', declineMessage: 'The channel\'s deposit never reached the chain and its authorisation expired; nothing moved' });
    }
    if (balance > totalClaimed) {
      // The seller has not refunded: after a grace, or at once when it refused, take back the
      // unclaimed balance through the contract's withdrawal, which the delay then completes.
      if (!(await withdrawUnclaimed(operation, balance - totalClaimed))) return operation;
      return followChannel(operation);
    }
    if (totalClaimed > 0n) {
      return resolveOperation(prisma, operation, { status: 'settled', settledAt: new Date() }, { capturedAmount: totalClaimed.toString(), claimedOnChain: totalClaimed.toString() });
    }
    // Nothing claimed: a deposit still in its window could land later; wait for it to expire.
    if (details.depositSigned === true && balance === 0n && !depositExpired()) return operation;
    return resolveOperation(prisma, operation, { status: 'declined', declineCode: 'channel_unclaimed', declineMessage: 'The channel closed with nothing claimed by the seller; the deposit is returned' });
  }

  /**
   * A closing channel whose seller did not refund: initiates the withdrawal of `unclaimed` (the
   * agent's transaction) once the refund failed or its grace passed, and finalizes it once the
   * channel's delay has passed on chain. True when the finalization moved the money back.
   */
  async function withdrawUnclaimed(operation: StoredOperation, unclaimed: bigint): Promise<boolean> {
    const { chain } = deps.x402!;
    const { details } = operation;
    const config = {
      payer: details.payer as Address,
      payerAuthorizer: details.payer as Address,
      receiver: details.payTo as Address,
      receiverAuthorizer: details.receiverAuthorizer as Address,
      token: chain.info.usdcAddress,
      withdrawDelay: Number(details.withdrawDelay),
      salt: details.salt as Hex,
    };
    const pending = await pendingChannelWithdrawal(chain, details.channelId as Hex, config.withdrawDelay);
    const { timestamp } = await chain.latestBlock();
    if (pending) {
      if (timestamp < pending.finalizableAt) return false;
      await finalizeChannelWithdrawal(chain, await channelPayer(operation), config);
      return true;
    }
    const closeRequestedAt = BigInt(String(details.closeRequestedAt ?? 0));
    if (details.refundFailed !== true && BigInt(Math.floor(Date.now() / 1000)) < closeRequestedAt + REFUND_GRACE_S) return false;
    const hash = await initiateChannelWithdrawal(chain, await channelPayer(operation), config, unclaimed);
    await prisma.$executeRaw`UPDATE rail_operations SET details = details || ${JSON.stringify({ withdrawTransactionHash: hash })}::jsonb WHERE id = ${operation.id}::uuid`;
    return false;
  }

  async function channelPayer(operation: StoredOperation) {
    const { paymentIntent } = await prisma.railOperation.findUniqueOrThrow({ where: { id: operation.id }, select: { paymentIntent: { select: { agentId: true } } } });
    return agentAccount(paymentIntent.agentId, { evenIfRevoked: true });
  }

  /** Once an `upto` authorisation ended, the agent's Permit2 allowance shrinks to what it still holds. */
  async function afterUpto(operation: StoredOperation): Promise<StoredOperation> {
    if (operation.status !== 'pending') await syncPermit2Allowance(prisma, deps.x402!, operation.details.agentId as string).catch(() => {});
    return operation;
  }


  /**
   * Voids a pending authorisation on chain, then reads how it ended: cancelled, or used if the
   * seller redeemed it first (the cancel then reverts). Throws while the chain cannot tell.
   */
  async function cancel(operation: StoredOperation, agentId: string): Promise<StoredOperation> {
    const current = await follow(operation);
    if (current.status !== 'pending') return current;
    if (current.details.scheme === 'batch-settlement') {
      // A channel cannot be voided by the agent alone: it is closed, and ends as the chain says.
      await prisma.$executeRaw`
        UPDATE rail_operations SET details = details || '{"closeRequested": true}'::jsonb WHERE id = ${current.id}::uuid AND status = 'pending'`;
      return follow({ ...current, details: { ...current.details, closeRequested: true } });
    }
    try {
      const account = await agentAccount(agentId, { evenIfRevoked: true });
      if (current.details.scheme === 'upto') {
        const hash = await deps.x402!.chain.invalidatePermit2Nonce(account, BigInt(String(current.details.nonce)));
        await prisma.railOperation.updateMany({ where: { id: current.id, status: 'pending' }, data: { details: { ...current.details, cancelTransactionHash: hash } } });
        return follow({ ...current, details: { ...current.details, cancelTransactionHash: hash } });
      }
      await cancelAuthorizationOnChain(deps.x402!.chain, account, current.details.nonce as Hex);
    } catch (error) {
      const after = await follow(current);
      if (after.status !== 'pending') return after;
      throw error;
    }
    return follow(current);
  }

  function withPollTime(operation: StoredOperation): StoredOperation {
    if (operation.status !== 'pending') return operation;
    const now = Date.now();
    if (operation.details.scheme === 'batch-settlement') return { ...operation, settleAfter: new Date(now + CHANNEL_POLL_MS) };
    const backOff = Math.min(Math.max((now - operation.createdAt.getTime()) / 2, AUTHORIZATION_POLL_MS), MAX_AUTHORIZATION_POLL_MS);
    // Just after the window closes (the chain's clock may lag the server's by the skew margin).
    const skewMs = Number(deps.x402!.chain.info.sandbox ? SANDBOX_CLOCK_SKEW_S : CLOCK_SKEW_S) * 1000;
    const closes = Number(operation.details.validBefore) * 1000 + skewMs;
    const next = Number.isFinite(closes) && closes > now ? Math.min(now + backOff, closes + AUTHORIZATION_POLL_MS) : now + backOff;
    return { ...operation, settleAfter: new Date(next) };
  }

  /**
   * A channel's operation: its config (a fresh salt, so each channel has its own id), the deposit
   * held, and the vouchers' cumulative, which starts at nothing. Nothing is signed here.
   */
  async function openChannel(payment: RailPayment, price: PricedRequirement, x402: X402IntentMetadata, payer: Address): Promise<NewOperation> {
    const { chain } = deps.x402!;
    const terms = price.channel!;
    const config = {
      payer,
      payerAuthorizer: payer,
      receiver: price.payTo,
      receiverAuthorizer: terms.receiverAuthorizer,
      token: price.asset,
      withdrawDelay: terms.withdrawDelay,
      salt: `0x${randomBytes(32).toString('hex')}` as Hex,
    };
    const channelId = computeChannelId(config, chain.info.network);
    const { number: fromBlock } = await chain.latestBlock();
    return {
      reference: channelId,
      status: 'pending',
      settleAfter: new Date(Date.now() + CHANNEL_POLL_MS),
      details: {
        network: chain.info.network,
        x402Version: x402.x402_version,
        scheme: 'batch-settlement',
        agentId: payment.payer.agentId,
        payer,
        payTo: price.payTo,
        receiverAuthorizer: terms.receiverAuthorizer,
        withdrawDelay: terms.withdrawDelay,
        salt: config.salt,
        channelId,
        deposit: price.amount.toString(),
        price: terms.price.toString(),
        cumulative: '0',
        vouchers: 0,
        depositSigned: false,
        resourceUrl: x402.resource?.url ?? null,
        fromBlock: fromBlock.toString(),
        transactionHash: null,
      },
    };
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
      const { priced: price, x402 } = outcome;
      const { chain } = deps.x402!;
      const payer = getAddress(payment.payer.evmAddress!);
      const { operation } = await recordOperationOnce(prisma, rail, payment.intentId, async (): Promise<NewOperation> => {
        const { status: agentStatus } = await prisma.agent.findUniqueOrThrow({ where: { id: payment.payer.agentId }, select: { status: true } });
        if (agentStatus !== 'active') {
          return { reference: `x402-refused-${payment.intentId}`, status: 'declined', declineCode: 'agent_not_active', declineMessage: `The agent is ${agentStatus}; nothing was signed`, details: { network: chain.info.network, payer } };
        }
        const onChain = await onChainBalanceCovering(payer, payment.amount);
        if (onChain < payment.amount) {
          return {
            reference: `x402-refused-${payment.intentId}`,
            status: 'declined',
            declineCode: 'insufficient_onchain_balance',
            declineMessage: `The agent's wallet ${payer} holds ${onChain} atomic USDC on ${chain.info.network}, less than the ${payment.amount} this payment needs; fund the agent`,
            details: { network: chain.info.network, payer },
          };
        }
        if (price.scheme === 'batch-settlement') return openChannel(payment, price, x402, payer);
        const { number: fromBlock } = await chain.latestBlock();
        const domain = await chain.usdcDomain();
        // Permit2 may move no more than the agent's open `upto` payments hold, this one included.
        if (price.scheme === 'upto') await syncPermit2Allowance(prisma, deps.x402!, payment.payer.agentId);
        const { idempotencyKey } = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: payment.intentId }, select: { idempotencyKey: true } });
        const account = await agentAccount(payment.payer.agentId);
        return signedOperation({ network: chain.info.network, payment, price, x402, payer, account, domain, fromBlock, idempotencyKey });
      });
      // The chain may be unreachable right after signing: the operation is recorded, and the
      // workflow follows it (without an attempt limit) instead of failing the step.
      return toRailResult(withPollTime(await follow(operation).catch(() => operation)));
    },

    async status(intentId) {
      const operation = await readOperation(prisma, intentId, 'x402-base');
      return toRailResult(withPollTime(await follow(operation)));
    },

    async abandon(intentId) {
      const operation = await readOperation(prisma, intentId, 'x402-base');
      if (operation.status !== 'pending') return toRailResult(operation);
      const { agentId } = await prisma.paymentIntent.findUniqueOrThrow({ where: { id: intentId }, select: { agentId: true } });
      return toRailResult(withPollTime(await cancel(operation, agentId)));
    },
  };
}

/** Per agent, one Permit2 allowance change at a time in this process. */
const oneAgentAtATime = oneAtATimeBy<string>();

/**
 * Sets the agent's Permit2 allowance to what its open `upto` payments hold: reserved, not yet
 * settled or released, and not resolved on the rail. One change at a time per agent in this
 * process (the permit's nonce is the token's, per agent); a permit that lost a race with another
 * process reverts, and the caller's step is retried.
 */
export function syncPermit2Allowance(prisma: PrismaClient, x402: X402RailDeps, agentId: string): Promise<void> {
  return oneAgentAtATime(agentId, async () => {
    const [row] = await prisma.$queryRaw<Array<{ held: bigint }>>`
      SELECT COALESCE(SUM(pi.amount), 0)::bigint AS held
        FROM payment_intents pi LEFT JOIN rail_operations ro ON ro.payment_intent_id = pi.id
       WHERE pi.agent_id = ${agentId}::uuid AND pi.rail = 'x402-base' AND pi.status = 'processing'
         AND pi.reserved_at IS NOT NULL AND pi.settled_at IS NULL AND pi.released_at IS NULL
         AND pi.metadata->'x402'->'requirement'->>'scheme' = 'upto'
         AND (ro.id IS NULL OR ro.status = 'pending')`;
    await setPermit2AllowanceOnChain(x402.chain, await readAgentEvmAccount(prisma, x402.masterKey, agentId, { evenIfRevoked: true }), row!.held);
  });
}

/** What signing an `exact` or `upto` authorisation takes; nothing is read on the way. */
export interface SigningFacts {
  network: string;
  payment: RailPayment;
  price: PricedRequirement;
  x402: X402IntentMetadata;
  payer: Address;
  account: LocalAccount;
  domain: Awaited<ReturnType<EvmChain['usdcDomain']>>;
  /** The chain's latest block before signing: where the search for its redemption starts. */
  fromBlock: bigint;
  /** The intent's key: the payment identifier derives from it. */
  idempotencyKey: string;
}

/**
 * Signs the payment's authorisation with the agent's key and checks the header against the
 * terms it was priced at: the pending operation that hands it out, or a declined one (never
 * stored with the header, so never handed out or forwarded) when the check fails. Signing reads
 * nothing, so it can run inside the transaction that holds the funds (pay-in-request.ts).
 */
export async function signedOperation({ network, payment, price, x402, payer, account, domain, fromBlock, idempotencyKey }: SigningFacts): Promise<NewOperation> {
  const header = await signX402Authorization({
    account,
    requirement: x402.requirement,
    priced: price,
    domain,
    resource: x402.resource,
    paymentId: { id: paymentIdentifierFor(payment.payer.agentId, idempotencyKey), declared: x402.extensions?.[PAYMENT_IDENTIFIER] as Record<string, unknown> | undefined },
  });
  // The window is Purser's, counted from now: the header may not outlive it.
  const latestValidBefore = BigInt(Math.floor(Date.now() / 1000) + price.validitySeconds);
  const terms: AuthorizationTerms = { ...price, from: payer, latestValidBefore };
  let decoded;
  try {
    decoded = await assertSignedAsPriced(header, terms, domain);
  } catch (error) {
    // Never stored, so never handed out or forwarded: it cannot move money.
    if (!(error instanceof AppError)) throw error;
    return { reference: `x402-refused-${payment.intentId}`, status: 'declined', declineCode: 'authorization_mismatch', declineMessage: error.message, details: { network, payer } };
  }
  const window: RailDetails =
    decoded.scheme === 'upto'
      ? { validBefore: decoded.payload.permit2Authorization.deadline, maximum: price.amount.toString(), facilitator: price.facilitator!, agentId: payment.payer.agentId }
      : { validBefore: decoded.payload.authorization.validBefore };
  return {
    reference: paymentReference(decoded),
    status: 'pending',
    settleAfter: new Date(Date.now() + AUTHORIZATION_POLL_MS),
    details: {
      network,
      x402Version: x402.x402_version,
      scheme: price.scheme,
      payer,
      payTo: price.payTo,
      nonce: paymentReference(decoded),
      ...window,
      latestValidBefore: latestValidBefore.toString(),
      fromBlock: fromBlock.toString(),
      paymentHeader: header,
      transactionHash: null,
    },
  };
}

/**
 * The seller says it settled an intent's authorisation in `transactionHash`: one read of that
 * transaction decides, not the seller. `exact` is settled when the transaction succeeded and the
 * USDC contract logged AuthorizationUsed for this payer and nonce in it; `upto` when it called
 * the upto proxy with this payer's permit and nonce, for the USDC it moved to the payee (the
 * capture's amount), and the agent's Permit2 allowance then shrinks to what it still holds.
 * Otherwise (no such transaction, another one, not mined yet) nothing changes, null is
 * answered, and the workflow follows the authorisation on chain as always.
 */
export async function settleFromReceipt(prisma: PrismaClient, x402: X402RailDeps, intentId: string, transactionHash: string): Promise<StoredOperation | null> {
  const { chain } = x402;
  const operation = await readOperation(prisma, intentId, 'x402-base');
  const { scheme, payer, nonce } = operation.details;
  if (operation.status !== 'pending' || !isHex(transactionHash, { strict: true }) || transactionHash.length !== 66) return null;
  if (scheme === 'upto') {
    const settlement = await chain.uptoSettlementIn(transactionHash, { owner: payer as Address, payTo: operation.details.payTo as Address, nonce: BigInt(String(nonce)) });
    if (!settlement) return null;
    const settled = await resolveOperation(prisma, operation, { status: 'settled', settledAt: new Date() }, { transactionHash, capturedAmount: settlement.amount.toString() });
    void syncPermit2Allowance(prisma, x402, operation.details.agentId as string).catch(() => {});
    return settled;
  }
  if (scheme !== 'exact') return null;
  const receipt = await chain.publicClient.getTransactionReceipt({ hash: transactionHash }).catch(() => null);
  if (receipt?.status !== 'success') return null;
  const used = parseEventLogs({ abi: fiatTokenAbi, eventName: 'AuthorizationUsed', logs: receipt.logs }).some(
    (log) =>
      isAddressEqual(log.address, chain.info.usdcAddress) &&
      isAddressEqual(log.args.authorizer, payer as Address) &&
      log.args.nonce.toLowerCase() === String(nonce).toLowerCase(),
  );
  if (!used) return null;
  return resolveOperation(prisma, operation, { status: 'settled', settledAt: new Date() }, { transactionHash });
}

/**
 * Cancels on chain every authorisation an agent signed that a seller has not redeemed yet, and
 * tells each payment's workflow to look: its hold is then released, since nothing can move the
 * money any more. Called when the agent is suspended or deleted. Each failure is reported and the
 * others still tried; an authorisation that could not be cancelled still expires within its window.
 */
export async function cancelOutstandingAuthorizations(
  deps: { prisma: PrismaClient; x402: X402RailDeps },
  agentId: string,
): Promise<{ cancelled: string[]; failed: { intentId: string; error: unknown }[] }> {
  const rail = createX402BaseRail({ prisma: deps.prisma, x402: deps.x402 });
  const pending = await deps.prisma.railOperation.findMany({
    where: { rail: 'x402_base', status: 'pending', paymentIntent: { agentId } },
    select: { paymentIntentId: true },
  });
  const cancelled: string[] = [];
  const failed: { intentId: string; error: unknown }[] = [];
  for (const { paymentIntentId } of pending) {
    try {
      await rail.abandon!(paymentIntentId);
      cancelled.push(paymentIntentId);
    } catch (error) {
      failed.push({ intentId: paymentIntentId, error });
    }
  }
  return { cancelled, failed };
}
