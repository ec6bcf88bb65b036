/**
 * x402 `batch-settlement` channels: many paid calls to one seller for one deposit and one claim.
 *
 * A channel is one payment intent on the x402-base rail whose amount is the deposit: it passes
 * the gate, the agent's rules, the owner's policies and approval, and the hold, like any payment
 * (x402-base-rail.ts records the channel; nothing is signed then). Each call then signs a voucher
 * with the official client (`BatchSettlementEvmScheme`), the first one with the deposit: the
 * voucher says the most the seller may claim so far (previous vouchers + this call's price),
 * never more than the deposit held. Vouchers are recorded (`ChannelVoucher`) in the transaction
 * that advances the channel's cumulative, under the operation's row lock, so two calls never sign
 * the same cumulative, and are sent in order; they start no workflow. Closing asks the seller to claim and refund the
 * rest (the official client's refund), and the payment workflow, told to look, captures what the
 * chain says the seller claimed and returns the rest of the hold. The contract refuses a claim
 * above a voucher, so a seller never gets more than the vouchers signed.
 *
 * When Purser opens a channel on its own (/x402/fetch): only when the seller offers
 * batch-settlement and no `exact` or `upto` payment on our network, or when the agent already has
 * an open channel to that seller (same payee, seller key, token and network) with room for the call.
 */
import { AppError, toDecimalString, type X402ChannelCloseView, type X402ChannelDetailView, type X402ChannelView, type X402FetchInput, type X402SignedPaymentView } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { toClientEvmSigner, type BatchSettlementDepositPayload, type BatchSettlementVoucherPayload, type ChannelConfig } from '@x402/evm';
import { BatchSettlementEvmScheme, computeChannelId, type ClientChannelStorage } from '@x402/evm/batch-settlement/client';
import { isAddressEqual, type Address, type Hex } from 'viem';
import type { AuthenticatedAgent } from '../agents/authenticate-agent';
import { isAnswerable } from '../agent-api/intent-outcome';
import { readAgentEvmAccount } from '../identity/agent-keys';
import { oneAtATimeBy } from '../../one-at-a-time';
import { isUniqueViolation } from '../ledger/database-error';
import { awaitIntent } from '../intents/await-intent';
import { signalPaymentWorkflow } from '../intents/payment-workflows';
import type { UpstreamResponse } from './upstream';
import { callUpstream, priceFor, upstreamView, type FetchOutcome, type X402Deps } from './x402-calls';
import type { PricedRequirement } from './x402-authorization';
import { paymentHeaderName, type PaymentRequiredInfo } from './x402-messages';

/** The channel as the rail operation's details hold it (x402-base-rail.ts, openChannel). */
interface ChannelDetails {
  scheme: 'batch-settlement';
  network: string;
  payer: Address;
  payTo: Address;
  receiverAuthorizer: Address;
  withdrawDelay: number;
  salt: Hex;
  channelId: Hex;
  deposit: string;
  price: string;
  cumulative: string;
  vouchers: number;
  depositSigned: boolean;
  depositValidBefore?: string;
  resourceUrl: string | null;
  closeRequested?: boolean;
  capturedAmount?: string;
}

const channelScheme = { path: ['scheme'], equals: 'batch-settlement' } as const;

/** How long a close waits for the chain's answer to reach the ledger before answering. */
const CLOSE_WAIT_MS = 15_000;

function refused(message: string): AppError {
  return new AppError('X402_REFUSED', message);
}

/** The channel's config, as the contract and the official client compute its id from it. */
function configOf(details: ChannelDetails, token: Address): ChannelConfig {
  return {
    payer: details.payer,
    payerAuthorizer: details.payer,
    receiver: details.payTo,
    receiverAuthorizer: details.receiverAuthorizer,
    token,
    withdrawDelay: details.withdrawDelay,
    salt: details.salt,
  };
}

/** The agent's open channel that can pay this priced call: same seller, key, token and network, with room left. */
async function openChannelFor(deps: X402Deps, agentId: string, priced: PricedRequirement): Promise<{ intentId: string; operationId: string } | null> {
  const candidates = await deps.db.prisma.railOperation.findMany({
    where: { rail: 'x402_base', status: 'pending', details: channelScheme, paymentIntent: { agentId, status: 'processing' } },
    select: { id: true, paymentIntentId: true, details: true },
    orderBy: { createdAt: 'asc' },
  });
  const terms = priced.channel!;
  const found = candidates.find(({ details }) => {
    const channel = details as unknown as ChannelDetails;
    return (
      channel.closeRequested !== true &&
      channel.network === priced.network &&
      isAddressEqual(channel.payTo, priced.payTo) &&
      isAddressEqual(channel.receiverAuthorizer, terms.receiverAuthorizer) &&
      channel.withdrawDelay === terms.withdrawDelay &&
      channel.price === terms.price.toString() &&
      BigInt(channel.deposit) - BigInt(channel.cumulative) >= terms.price
    );
  });
  return found ? { intentId: found.paymentIntentId, operationId: found.id } : null;
}

/**
 * The seller's batch-settlement requirement that an open channel of the agent can pay, if any:
 * an open channel is used before anything else the seller offers.
 */
export async function channelToReuse(deps: X402Deps, agent: AuthenticatedAgent, info: PaymentRequiredInfo): Promise<{ requirement: Record<string, unknown> } | null> {
  if (info.x402Version !== 2) return null;
  for (const requirement of info.accepts) {
    if (requirement.scheme !== 'batch-settlement') continue;
    let priced: PricedRequirement;
    try {
      priced = priceFor(deps, requirement as unknown as Record<string, unknown>, 2);
    } catch {
      continue;
    }
    if (await openChannelFor(deps, agent.agentId, priced)) return { requirement: requirement as unknown as Record<string, unknown> };
  }
  return null;
}

/**
 * The per-transaction limit a channel's deposit must fit: the deposit is one payment, so the
 * seller's minimum above it is refused here, before an intent exists, with the reason.
 */
async function assertDepositWithinLimit(deps: X402Deps, agentId: string, deposit: bigint): Promise<void> {
  const rules = await deps.db.prisma.spendingRules.findUnique({ where: { agentId }, select: { maxTransactionAmount: true } });
  if (rules && deposit > rules.maxTransactionAmount) {
    throw new AppError(
      'POLICY_VIOLATION',
      `The seller's channel needs a deposit of ${toDecimalString(deposit)} USDC, above the agent's per-transaction limit of ${toDecimalString(rules.maxTransactionAmount)} USDC; no channel was opened and nothing was held or signed`,
    );
  }
}

export interface ChannelCall {
  input: X402FetchInput;
  /** The call's Idempotency-Key (header or body): a call repeated with it signs no second voucher. */
  idempotencyKey?: string;
  info: PaymentRequiredInfo;
  requirement: Record<string, unknown>;
  priced: PricedRequirement;
  /** Opens a channel: the payment intent of the deposit, answered once it is held or waits. */
  open: () => Promise<X402SignedPaymentView>;
}

/**
 * Pays one call through the agent's open channel to this seller, opening one first when there is
 * none with room: signs the voucher, records it, and calls the seller with it.
 */
export async function payThroughChannel(deps: X402Deps, agent: AuthenticatedAgent, call: ChannelCall): Promise<FetchOutcome> {
  const { priced, input } = call;
  await assertNotPaidYet(deps, agent.agentId, call.idempotencyKey);
  let channel = await openChannelFor(deps, agent.agentId, priced);
  if (!channel) {
    await assertDepositWithinLimit(deps, agent.agentId, priced.amount);
    const opened = await call.open();
    if (opened.status !== 'processing') return { kind: 'waiting', view: opened };
    const operation = await deps.db.prisma.railOperation.findUnique({ where: { paymentIntentId: opened.intent_id }, select: { id: true, status: true } });
    if (!operation || operation.status !== 'pending') return { kind: 'waiting', view: opened };
    channel = { intentId: opened.intent_id, operationId: operation.id };
  }
  const { response, voucher } = await signChannelVoucher(deps, agent, channel, call, (header) =>
    callUpstream(deps, { ...input, headers: { ...input.headers, [paymentHeaderName(2)]: header } }),
  );
  return {
    kind: 'response',
    view: {
      ...upstreamView(response, { intent_id: channel.intentId, status: 'processing', transaction_hash: null }),
      channel_voucher: voucher,
    },
  };
}

/**
 * A call through a channel repeated with its Idempotency-Key (a client retrying after a lost
 * answer) is not paid again. The seller's answer to the first is not kept, so it is refused.
 */
async function assertNotPaidYet(deps: X402Deps, agentId: string, idempotencyKey: string | undefined): Promise<void> {
  if (idempotencyKey === undefined) return;
  const paid = await deps.db.prisma.channelVoucher.findUnique({
    where: { agentId_idempotencyKey: { agentId, idempotencyKey } },
    select: { paymentIntentId: true, cumulative: true },
  });
  if (paid) throw alreadyPaid(paid.paymentIntentId);
}

function alreadyPaid(intentId: string): AppError {
  return new AppError('CONFLICT', `This Idempotency-Key already paid a call through channel ${intentId}; nothing was paid again. Use a new key for a new call`);
}

/** How long signing and recording a voucher may hold the channel's row. */
const VOUCHER_TRANSACTION_MS = 10_000;

/** Per channel, one call at a time in this process. */
const oneChannelCallAtATime = oneAtATimeBy<string>();

/**
 * Signs the next voucher of a channel with the official client, under the operation's row lock,
 * checks it and records it with the channel's new cumulative in one short transaction, then sends
 * it. The seller takes a channel's vouchers only in order (each is the last one plus the price),
 * so the calls through one channel are signed and sent one at a time in this process; the row
 * lock keeps two processes from signing the same cumulative. The seller's call is outside the
 * transaction: a slow or hanging seller holds no database connection (on the embedded database
 * there is only one). A voucher that was sent is recorded even when the seller's answer fails: it
 * can be claimed either way.
 */
function signChannelVoucher(
  deps: X402Deps,
  agent: AuthenticatedAgent,
  channel: { intentId: string; operationId: string },
  call: ChannelCall,
  send: (header: string) => Promise<UpstreamResponse>,
): Promise<{ response: UpstreamResponse; voucher: { amount_exact: string; cumulative_exact: string; deposit_exact: string } }> {
  return oneChannelCallAtATime(channel.operationId, async () => {
    const { header, voucher } = await recordChannelVoucher(deps, agent, channel, call);
    return { response: await send(header), voucher };
  });
}

async function recordChannelVoucher(
  deps: X402Deps,
  agent: AuthenticatedAgent,
  channel: { intentId: string; operationId: string },
  call: ChannelCall,
): Promise<{ header: string; voucher: { amount_exact: string; cumulative_exact: string; deposit_exact: string } }> {
  const { priced, requirement } = call;
  const domain = await deps.chain.usdcDomain();
  const resource = call.info.resource?.url ?? call.input.url;
  return deps.db.prisma.$transaction(async (tx: TransactionClient) => {
    const [row] = await tx.$queryRaw<Array<{ status: string; details: ChannelDetails }>>`
      SELECT status::text AS status, details FROM rail_operations WHERE id = ${channel.operationId}::uuid FOR UPDATE`;
    const details = row!.details;
    if (row!.status !== 'pending' || details.closeRequested === true) throw new AppError('CONFLICT', `The channel (payment intent ${channel.intentId}) is closed; no voucher was signed`);
    const deposit = BigInt(details.deposit);
    const price = BigInt(details.price);
    const cumulative = BigInt(details.cumulative) + price;
    if (cumulative > deposit) throw new AppError('CONFLICT', `The channel (payment intent ${channel.intentId}) has no room for another call; no voucher was signed`);

    const account = await readAgentEvmAccount(tx, deps.masterKey, agent.agentId);
    const config = configOf(details, priced.asset);
    const channelId = computeChannelId(config, priced.network);
    if (channelId !== details.channelId || !isAddressEqual(account.address, details.payer)) throw refused('The channel recorded is not this agent\'s channel to this seller; no voucher was signed');

    // The client's view of the channel is the ledger's: what the vouchers signed, and the
    // deposit once it was signed. The record is written below, by Purser, not by the client.
    const storage: ClientChannelStorage = {
      get: async (id) => (id === channelId.toLowerCase() ? { chargedCumulativeAmount: details.cumulative, ...(details.depositSigned ? { balance: details.deposit } : {}) } : undefined),
      set: async () => {},
      delete: async () => {},
    };
    const client = new BatchSettlementEvmScheme(toClientEvmSigner(account), {
      storage,
      salt: details.salt,
      payerAuthorizer: account.address,
      // The held deposit, once, on the first call; never a top-up.
      depositStrategy: (context) => (details.depositSigned || BigInt(context.minimumDepositAmount) > deposit ? false : details.deposit),
    });
    const signing = {
      ...requirement,
      maxTimeoutSeconds: priced.validitySeconds,
      extra: { ...((requirement.extra ?? {}) as Record<string, unknown>), name: domain.name, version: domain.version },
    } as unknown as PaymentRequirements;
    const { payload } = await client.createPaymentPayload(2, signing);
    const signed = payload as unknown as BatchSettlementDepositPayload | BatchSettlementVoucherPayload;
    const latestValidBefore = BigInt(Math.floor(Date.now() / 1000) + priced.validitySeconds);
    checkVoucher(signed, { config, channelId, cumulative, deposit, depositDue: !details.depositSigned, latestValidBefore });

    // A repeated call that got past the check above stops here, before anything is sent.
    await tx.channelVoucher
      .create({
        data: { railOperationId: channel.operationId, paymentIntentId: channel.intentId, agentId: agent.agentId, amount: price, cumulative, resource, idempotencyKey: call.idempotencyKey ?? null },
        select: { id: true },
      })
      .catch((error: unknown) => {
        throw isUniqueViolation(error) ? alreadyPaid(channel.intentId) : error;
      });
    const update: Partial<ChannelDetails> = {
      cumulative: cumulative.toString(),
      vouchers: details.vouchers + 1,
      ...(signed.type === 'deposit' ? { depositSigned: true, depositValidBefore: signed.deposit.authorization.erc3009Authorization!.validBefore } : {}),
    };
    await tx.$executeRaw`UPDATE rail_operations SET details = details || ${JSON.stringify(update)}::jsonb, updated_at = now() WHERE id = ${channel.operationId}::uuid`;

    const message: PaymentPayload = {
      x402Version: 2,
      payload: signed as unknown as PaymentPayload['payload'],
      accepted: requirement as unknown as PaymentRequirements,
      ...(call.info.resource ? { resource: call.info.resource as PaymentPayload['resource'] } : {}),
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
  const problems: string[] = [];
  const expect = (ok: boolean, problem: string) => void (ok || problems.push(problem));
  const { config } = expected;
  const got = signed.channelConfig;
  expect(isAddressEqual(got.payer, config.payer) && isAddressEqual(got.payerAuthorizer, config.payerAuthorizer), `payer ${got.payer}, not ${config.payer}`);
  expect(isAddressEqual(got.receiver, config.receiver), `receiver ${got.receiver}, not ${config.receiver}`);
  expect(isAddressEqual(got.receiverAuthorizer, config.receiverAuthorizer), `receiver authorizer ${got.receiverAuthorizer}, not ${config.receiverAuthorizer}`);
  expect(isAddressEqual(got.token, config.token), `token ${got.token}, not ${config.token}`);
  expect(got.withdrawDelay === config.withdrawDelay && got.salt.toLowerCase() === config.salt.toLowerCase(), 'the channel\'s withdraw delay or salt differ');
  expect(signed.voucher.channelId.toLowerCase() === expected.channelId.toLowerCase(), `voucher for channel ${signed.voucher.channelId}, not ${expected.channelId}`);
  const ceiling = BigInt(signed.voucher.maxClaimableAmount);
  expect(ceiling === expected.cumulative, `voucher for ${ceiling}, not ${expected.cumulative}`);
  expect(ceiling <= expected.deposit, `voucher for ${ceiling}, above the deposit ${expected.deposit}`);
  if (signed.type === 'deposit') {
    expect(expected.depositDue, 'a second deposit');
    expect(BigInt(signed.deposit.amount) === expected.deposit, `deposit ${signed.deposit.amount}, not the held ${expected.deposit}`);
    const authorization = signed.deposit.authorization.erc3009Authorization;
    expect(authorization !== undefined && BigInt(authorization.validBefore) <= expected.latestValidBefore, 'a deposit authorisation outside Purser\'s window, or not EIP-3009');
  } else {
    expect(!expected.depositDue, 'no deposit on the first call');
  }
  if (problems.length > 0) throw refused(`The channel payment is not what was held (${problems.join('; ')}); it was not sent`);
}

// ---------------------------------------------------------------- listing and closing

type ChannelRow = {
  paymentIntentId: string;
  status: string;
  details: unknown;
  createdAt: Date;
  paymentIntent: { status: X402ChannelView['status']; toAddress: string | null };
  _count: { vouchers: number };
};

const channelSelect = {
  paymentIntentId: true,
  status: true,
  details: true,
  createdAt: true,
  paymentIntent: { select: { status: true, toAddress: true } },
  _count: { select: { vouchers: true } },
} as const;

function channelView(row: ChannelRow): X402ChannelView {
  const details = row.details as ChannelDetails;
  const state = row.status !== 'pending' ? 'closed' : details.closeRequested ? 'closing' : details.depositSigned ? 'open' : 'opening';
  return {
    intent_id: row.paymentIntentId,
    status: row.paymentIntent.status,
    state,
    channel_id: details.channelId ?? null,
    pay_to: details.payTo ?? row.paymentIntent.toAddress ?? '',
    network: details.network,
    resource: details.resourceUrl ?? null,
    deposit_exact: toDecimalString(BigInt(details.deposit)),
    price_exact: toDecimalString(BigInt(details.price)),
    cumulative_exact: toDecimalString(BigInt(details.cumulative)),
    vouchers_count: row._count.vouchers,
    captured_exact: row.status === 'settled' && details.capturedAmount ? toDecimalString(BigInt(details.capturedAmount)) : row.status === 'declined' ? '0' : null,
    created_at: row.createdAt.toISOString(),
  };
}

/** The agent's channels, newest first. */
export async function listX402Channels(deps: X402Deps, agent: AuthenticatedAgent): Promise<{ channels: X402ChannelView[] }> {
  const rows = await deps.db.prisma.railOperation.findMany({
    where: { rail: 'x402_base', details: channelScheme, paymentIntent: { agentId: agent.agentId } },
    select: channelSelect,
    orderBy: { createdAt: 'desc' },
    take: 100,
  });
  return { channels: rows.map((row) => channelView(row as ChannelRow)) };
}

async function readChannel(deps: X402Deps, agent: AuthenticatedAgent, intentId: string): Promise<ChannelRow> {
  const row = await deps.db.prisma.railOperation.findFirst({
    where: { paymentIntentId: intentId, rail: 'x402_base', details: channelScheme, paymentIntent: { agentId: agent.agentId } },
    select: channelSelect,
  });
  if (!row) throw new AppError('NOT_FOUND', `The agent has no x402 channel with payment intent ${intentId}`);
  return row as ChannelRow;
}

/** One of the agent's channels with its vouchers, oldest first. */
export async function getX402Channel(deps: X402Deps, agent: AuthenticatedAgent, intentId: string): Promise<X402ChannelDetailView> {
  const row = await readChannel(deps, agent, intentId);
  const vouchers = await deps.db.prisma.channelVoucher.findMany({
    where: { paymentIntentId: intentId, agentId: agent.agentId },
    orderBy: { cumulative: 'asc' },
    select: { amount: true, cumulative: true, resource: true, createdAt: true },
  });
  return {
    ...channelView(row),
    vouchers: vouchers.map((voucher) => ({
      amount_exact: toDecimalString(voucher.amount),
      cumulative_exact: toDecimalString(voucher.cumulative),
      resource: voucher.resource,
      created_at: voucher.createdAt.toISOString(),
    })),
  };
}

/** fetch, through the outbound policy: the official client's refund calls the seller with it. */
function upstreamFetch(deps: X402Deps): typeof fetch {
  return (async (target: string | URL | Request, init?: RequestInit) => {
    const url = target instanceof Request ? target.url : String(target);
    const answer = await callUpstream(deps, { url, method: init?.method ?? 'GET', headers: Object.fromEntries(new Headers(init?.headers).entries()) });
    const empty = answer.status === 204 || answer.status === 304;
    return new Response(empty ? null : new Uint8Array(answer.body), { status: answer.status, headers: answer.headers });
  }) as typeof fetch;
}

/**
 * Closes a channel: no voucher is signed after this; the seller is asked (the official client's
 * refund, at the channel's resource) to claim what the vouchers signed and return the rest of the
 * deposit; then the payment workflow is told to look at the chain, which it captures from. A
 * seller that refuses, or does not refund within a grace, does not keep the deposit: the rail
 * withdraws the unclaimed balance through the contract (the agent's own transactions), which the
 * channel's withdraw delay completes; the seller keeps only what its vouchers let it claim.
 */
export async function closeX402Channel(deps: X402Deps, agent: AuthenticatedAgent, intentId: string): Promise<X402ChannelCloseView> {
  const row = await readChannel(deps, agent, intentId);
  const details = await deps.db.prisma.$transaction(async (tx: TransactionClient) => {
    // Under the lock the vouchers take: no voucher is signed once this commits.
    await tx.$executeRaw`
      UPDATE rail_operations SET details = details || jsonb_build_object('closeRequested', true, 'closeRequestedAt', COALESCE(details->'closeRequestedAt', to_jsonb(${Math.floor(Date.now() / 1000)}::bigint))), updated_at = now()
       WHERE payment_intent_id = ${intentId}::uuid AND status = 'pending'`;
    const [current] = await tx.$queryRaw<Array<{ details: ChannelDetails }>>`SELECT details FROM rail_operations WHERE payment_intent_id = ${intentId}::uuid`;
    return current!.details;
  });
  const refund: X402ChannelCloseView['refund'] = { requested: false, success: false, error: null };
  if (row.status === 'pending' && details.depositSigned && details.resourceUrl) {
    refund.requested = true;
    try {
      const account = await readAgentEvmAccount(deps.db.prisma, deps.masterKey, agent.agentId, { evenIfRevoked: true });
      const storage: ClientChannelStorage = {
        get: async (id) => (id === details.channelId.toLowerCase() ? { chargedCumulativeAmount: details.cumulative, balance: details.deposit } : undefined),
        set: async () => {},
        delete: async () => {},
      };
      const client = new BatchSettlementEvmScheme(toClientEvmSigner(account), { storage, salt: details.salt, payerAuthorizer: account.address });
      const settled = await client.refund(details.resourceUrl, { fetch: upstreamFetch(deps) });
      refund.success = settled.success;
      refund.error = settled.success ? null : (settled.errorReason ?? 'refused');
    } catch (error) {
      refund.error = error instanceof Error ? error.message : String(error);
    }
    // The seller would not refund: the rail takes the unclaimed balance back through the contract.
    if (!refund.success) {
      await deps.db.prisma.$executeRaw`
        UPDATE rail_operations SET details = details || '{"refundFailed": true}'::jsonb, updated_at = now()
         WHERE payment_intent_id = ${intentId}::uuid AND status = 'pending'`;
    }
  }
  await signalPaymentWorkflow(deps.temporal, intentId, 'railUpdated', (error) => deps.logger.warn({ err: error, intentId }, 'could not signal the payment workflow'));
  await awaitIntent(deps.db.prisma, agent.ownerId, intentId, isAnswerable, CLOSE_WAIT_MS, { events: deps.events });
  return { ...channelView(await readChannel(deps, agent, intentId)), refund };
}

