/**
 * A channel's vouchers: each call signs the next one with the official client (the first one
 * with the deposit), saying the most the seller may claim so far (previous vouchers + this
 * call's price), never more than the deposit held. It is gated (the front's check of the agent
 * and the owner's rules at this moment, front/gate-voucher.ts), signed, checked, then recorded
 * with the channel's new cumulative in one short transaction under the operation's row lock, so
 * two calls never sign the same cumulative and no voucher is signed that the rules of the moment
 * refuse.
 */
import { AppError, toDecimalString } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload } from '@x402/core/types';
import type { BatchSettlementDepositPayload, BatchSettlementVoucherPayload, ChannelConfig } from '@x402/evm';
import { computeChannelId } from '@x402/evm/batch-settlement/client';
import { isAddressEqual, type Hex } from 'viem';
import { readAgentEvmAccount } from '../../../identity/agent-keys';
import { isUniqueViolation } from '../../../ledger/database-error';
import { latestValidBefore } from '../chain-clock';
import { mergeDetails } from '../operation-details';
import type { PricedRequirement, SchemeContext, UsdcDomain } from '../payment-scheme';
import { problemList, refused } from '../problems';
import { requirementAsSigned } from '../requirement-as-signed';
import { channelClient, channelConfigOf } from './channel-client';
import { ChannelState } from './channel-state';

/** How long signing and recording a voucher may hold the channel's row. */
const VOUCHER_TRANSACTION_MS = 10_000;

export interface VoucherCall {
  agentId: string;
  channel: { intentId: string; operationId: string };
  requirement: Record<string, unknown>;
  priced: PricedRequirement;
  /** What is paid for: the 402's resource, else the URL called. */
  resource: string;
  paymentResource?: PaymentPayload['resource'];
  /** The call's Idempotency-Key: a call repeated with it signs no second voucher. */
  idempotencyKey?: string;
  /**
   * The front's gate of this voucher (the agent's status, its spending rules and the owner's
   * policies now), run first in the voucher's transaction; it throws to refuse, and then nothing
   * is signed or recorded.
   */
  gate: (tx: TransactionClient) => Promise<void>;
}

export interface SignedVoucher {
  header: string;
  voucher: { amount_exact: string; cumulative_exact: string; deposit_exact: string };
}

export function alreadyPaid(intentId: string): AppError {
  return new AppError('CONFLICT', `This Idempotency-Key already paid a call through channel ${intentId}; nothing was paid again. Use a new key for a new call`);
}

/** Signs, checks and records the channel's next voucher; the header to send. */
export async function recordChannelVoucher(context: SchemeContext, domain: UsdcDomain, call: VoucherCall): Promise<SignedVoucher> {
  const { channel, priced, requirement } = call;
  return context.prisma.$transaction(async (tx: TransactionClient) => {
    await call.gate(tx);
    const [row] = await tx.$queryRaw<Array<{ status: string; details: unknown }>>`
      SELECT status::text AS status, details FROM rail_operations WHERE id = ${channel.operationId}::uuid FOR UPDATE`;
    const state = ChannelState.parse(row!.details);
    if (row!.status !== 'pending' || state.closeRequested === true) throw new AppError('CONFLICT', `The channel (payment intent ${channel.intentId}) is closed; no voucher was signed`);
    const deposit = BigInt(state.deposit);
    const price = BigInt(state.price);
    // The gate judged the priced call; the channel pays that price, or nothing is signed.
    if (price !== priced.channel?.price) throw new AppError('CONFLICT', `The channel (payment intent ${channel.intentId}) pays calls of ${toDecimalString(price)} USDC, not this one's; no voucher was signed`);
    const cumulative = BigInt(state.cumulative) + price;
    if (cumulative > deposit) throw new AppError('CONFLICT', `The channel (payment intent ${channel.intentId}) has no room for another call; no voucher was signed`);

    const account = await readAgentEvmAccount(tx, context.masterKey, call.agentId);
    const config = channelConfigOf(state, priced.asset);
    const channelId = computeChannelId(config, priced.network);
    if (channelId !== state.channelId || !isAddressEqual(account.address, state.payer as Hex)) throw refused("The channel recorded is not this agent's channel to this seller; no voucher was signed");

    const client = channelClient(account, state, {
      // The held deposit, once, on the first call; never a top-up.
      depositStrategy: (context) => (state.depositSigned || BigInt(context.minimumDepositAmount) > deposit ? false : state.deposit),
    });
    const { payload } = await client.createPaymentPayload(2, requirementAsSigned(requirement, priced.validitySeconds, domain));
    const signed = payload as unknown as BatchSettlementDepositPayload | BatchSettlementVoucherPayload;
    checkVoucher(signed, { config, channelId, cumulative, deposit, depositDue: !state.depositSigned, latestValidBefore: latestValidBefore(priced.validitySeconds) });

    // A repeated call that got past the check above stops here, before anything is sent.
    await tx.channelVoucher
      .create({
        data: { railOperationId: channel.operationId, paymentIntentId: channel.intentId, agentId: call.agentId, amount: price, cumulative, resource: call.resource, idempotencyKey: call.idempotencyKey ?? null },
        select: { id: true },
      })
      .catch((error: unknown) => {
        throw isUniqueViolation(error) ? alreadyPaid(channel.intentId) : error;
      });
    const patch: Partial<ChannelState> = {
      cumulative: cumulative.toString(),
      vouchers: state.vouchers + 1,
      ...(signed.type === 'deposit' ? { depositSigned: true, depositValidBefore: signed.deposit.authorization.erc3009Authorization!.validBefore } : {}),
    };
    await mergeDetails(tx, { id: channel.operationId }, patch, { returning: [] });

    const message: PaymentPayload = {
      x402Version: 2,
      payload: signed as unknown as PaymentPayload['payload'],
      accepted: requirement as unknown as PaymentPayload['accepted'],
      ...(call.paymentResource ? { resource: call.paymentResource } : {}),
    };
    const voucher = { amount_exact: toDecimalString(price), cumulative_exact: toDecimalString(cumulative), deposit_exact: toDecimalString(deposit) };
    return { header: encodePaymentSignatureHeader(message), voucher };
  }, { timeout: VOUCHER_TRANSACTION_MS, maxWait: VOUCHER_TRANSACTION_MS });
}

/**
 * What the client signed, checked before it leaves: this channel (payer the agent, receiver the
 * payee, our USDC), the voucher for exactly the previous cumulative plus the price and within the
 * deposit, and a deposit only on the first call, of exactly the held amount, within our window.
 */
export function checkVoucher(
  signed: BatchSettlementDepositPayload | BatchSettlementVoucherPayload,
  expected: { config: ChannelConfig; channelId: Hex; cumulative: bigint; deposit: bigint; depositDue: boolean; latestValidBefore: bigint },
): void {
  const { expect, problems } = problemList();
  const { config } = expected;
  const got = signed.channelConfig;
  expect(isAddressEqual(got.payer, config.payer) && isAddressEqual(got.payerAuthorizer, config.payerAuthorizer), `payer ${got.payer}, not ${config.payer}`);
  expect(isAddressEqual(got.receiver, config.receiver), `receiver ${got.receiver}, not ${config.receiver}`);
  expect(isAddressEqual(got.receiverAuthorizer, config.receiverAuthorizer), `receiver authorizer ${got.receiverAuthorizer}, not ${config.receiverAuthorizer}`);
  expect(isAddressEqual(got.token, config.token), `token ${got.token}, not ${config.token}`);
  expect(got.withdrawDelay === config.withdrawDelay && got.salt.toLowerCase() === config.salt.toLowerCase(), "the channel's withdraw delay or salt differ");
  expect(signed.voucher.channelId.toLowerCase() === expected.channelId.toLowerCase(), `voucher for channel ${signed.voucher.channelId}, not ${expected.channelId}`);
  const ceiling = BigInt(signed.voucher.maxClaimableAmount);
  expect(ceiling === expected.cumulative, `voucher for ${ceiling}, not ${expected.cumulative}`);
  expect(ceiling <= expected.deposit, `voucher for ${ceiling}, above the deposit ${expected.deposit}`);
  if (signed.type === 'deposit') {
    expect(expected.depositDue, 'a second deposit');
    expect(BigInt(signed.deposit.amount) === expected.deposit, `deposit ${signed.deposit.amount}, not the held ${expected.deposit}`);
    const authorization = signed.deposit.authorization.erc3009Authorization;
    expect(authorization !== undefined && BigInt(authorization.validBefore) <= expected.latestValidBefore, "a deposit authorisation outside Purser's window, or not EIP-3009");
  } else {
    expect(!expected.depositDue, 'no deposit on the first call');
  }
  if (problems.length > 0) throw refused(`The channel payment is not what was held (${problems.join('; ')}); it was not sent`);
}
