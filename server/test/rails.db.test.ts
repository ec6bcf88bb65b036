/**
 * Payment rails on a real database: one RailOperation per intent however often execute runs,
 * the simulators' asynchronous settlement under an injected clock, every row of the card
 * decline and bank return tables, the x402 limit, rail selection and real Solana transfers.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isAppError, parseAmount, X402_INTENT_REASON, type Currency, type ErrorCode } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { openTestDatabase, type TestDatabase } from '@purser/db/testing';
import { BANK_RETURNS, createBankRail } from '../src/services/rails/bank-rail';
import { CARD_DECLINES, createCardRail } from '../src/services/rails/card-rail';
import { createRails, selectRail, type Rails } from '../src/services/rails/create-rails';
import { declinedError, type RailPayment } from '../src/services/rail-operations/rail';
import { destinationOf } from '../src/services/rails/solana-rail';
import { createAgent, createOwner, type TestAgent, type TestOwner } from './support/wallet-fixtures';

const CARD_DELAY_MS = 2_000;
const BANK_DELAY_MS = 5_000;

let database: TestDatabase;
let prisma: PrismaClient;
let owner: TestOwner;
let agent: TestAgent;
let rails: Rails;
/** The simulators' clock; tests move it forward. */
let clock: Date;

beforeAll(async () => {
  database = await openTestDatabase();
  prisma = database.db.prisma;
  owner = await createOwner(prisma);
  agent = await createAgent(prisma, owner.userId);
  rails = createRails({
    prisma,
    now: () => clock,
    card: { settlementDelayMs: CARD_DELAY_MS },
    bank: { settlementDelayMs: BANK_DELAY_MS },
    solana: { seed: new TextEncoder().encode('rails test seed') },
  });
});

afterAll(async () => {
  await database?.cleanup();
});

beforeEach(() => {
  clock = new Date('2030-01-02T03:04:05.000Z');
});

const usd = (dollars: string) => parseAmount(dollars);

/** A payment intent row (the operation's foreign key) and the rail's view of it. */
async function intent(
  overrides: { amount?: string; currency?: Currency; toAddress?: string | null; merchant?: string | null; metadata?: Record<string, string> } = {},
): Promise<RailPayment> {
  const amount = usd(overrides.amount ?? '12.00');
  const currency = overrides.currency ?? 'USDC';
  const toAddress = overrides.toAddress === undefined ? 'acct_payee_001' : overrides.toAddress;
  const merchant = overrides.merchant === undefined ? 'Example Books' : overrides.merchant;
  const metadata = overrides.metadata ?? {};
  const key = randomUUID();
  const row = await prisma.paymentIntent.create({
    data: {
      ownerId: owner.userId,
      agentId: agent.agentId,
      createdBy: 'owner',
      amount,
      currency,
      toAddress,
      merchant,
      metadata,
      workflowId: `payment-${key}`,
      idempotencyKey: key,
      requestHash: 'test',
    },
    select: { id: true },
  });
  return {
    intentId: row.id,
    amount,
    currency,
    toAddress,
    merchant,
    geography: null,
    metadata,
    payer: { agentId: agent.agentId, walletAddress: agent.walletAddress, evmAddress: agent.walletAddress },
  };
}

function advance(ms: number): void {
  clock = new Date(clock.getTime() + ms);
}

async function operationsOf(intentId: string): Promise<number> {
  return prisma.railOperation.count({ where: { paymentIntentId: intentId } });
}

async function errorOf(promise: Promise<unknown>): Promise<{ code: ErrorCode; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('ledger rail', () => {
  it('settles at once, not as sandbox, with a reference named after the intent', async () => {
    const payment = await intent();

    const result = await rails.ledger.execute(payment);

    expect(result).toMatchObject({ rail: 'ledger', reference: `ledger_${payment.intentId}`, status: 'settled', sandbox: false, settleAfter: null });
    expect(result.settledAt).toEqual(clock);
    const stored = await prisma.railOperation.findUniqueOrThrow({ where: { paymentIntentId: payment.intentId } });
    expect(stored).toMatchObject({ rail: 'ledger', status: 'settled', sandbox: false, reference: result.reference });
    expect(await rails.ledger.status(payment.intentId)).toEqual(result);
  });

  it('records one operation however often execute is called, also concurrently', async () => {
    const payment = await intent();

    const results = await Promise.all([rails.ledger.execute(payment), rails.ledger.execute(payment), rails.ledger.execute(payment)]);
    const again = await rails.ledger.execute(payment);

    expect(await operationsOf(payment.intentId)).toBe(1);
    for (const result of [...results, again]) expect(result).toEqual(results[0]);
  });

  it('quotes every currency with no fee and instant settlement', async () => {
    const payment = await intent({ currency: 'USDT' });
    expect(await rails.ledger.quote(payment)).toEqual({ rail: 'ledger', available: true, fee: 0n, estimatedSettlementMs: 0, sandbox: false });
  });
});

describe('rail operations', () => {
  it('refuses to send an intent to a second rail', async () => {
    const payment = await intent();
    await rails.ledger.execute(payment);

    const error = await errorOf(rails.card.execute(payment));

    expect(error.code).toBe('CONFLICT');
    expect(error.message).toBe(`Payment intent ${payment.intentId} was sent to the ledger rail, not the card rail`);
    expect(await operationsOf(payment.intentId)).toBe(1);
  });

  it('answers NOT_FOUND for the status of an intent that was never executed', async () => {
    const payment = await intent();
    const error = await errorOf(rails.card.status(payment.intentId));
    expect(error).toEqual({ code: 'NOT_FOUND', message: `Payment intent ${payment.intentId} has no operation on the card rail yet` });
  });

  it('answers NOT_FOUND for a payment whose intent does not exist', async () => {
    const payment = await intent();
    const error = await errorOf(rails.ledger.execute({ ...payment, intentId: randomUUID() }));
    expect(error).toEqual({ code: 'NOT_FOUND', message: 'Payment intent not found' });
  });
});

describe('card rail (sandbox)', () => {
  it('authorises, stays pending until the clearing time, then settles at that time', async () => {
    const payment = await intent({ amount: '25.00' });
    const executedAt = clock;

    const authorised = await rails.card.execute(payment);

    expect(authorised).toMatchObject({ rail: 'card', status: 'pending', sandbox: true, declineCode: null, settledAt: null });
    expect(authorised.reference).toMatch(/^card_auth_[0-9a-f]{24}$/);
    expect(authorised.settleAfter).toEqual(new Date(executedAt.getTime() + CARD_DELAY_MS));
    expect(authorised.details).toMatchObject({ merchant: 'Example Books', amount: '25000000', currency: 'USDC', authorizationCode: expect.stringMatching(/^[0-9A-F]{6}$/) });

    advance(CARD_DELAY_MS - 1);
    expect((await rails.card.status(payment.intentId)).status).toBe('pending');

    advance(1);
    const settled = await rails.card.status(payment.intentId);
    expect(settled).toMatchObject({ status: 'settled', reference: authorised.reference, settledAt: authorised.settleAfter });
    const stored = await prisma.railOperation.findUniqueOrThrow({ where: { paymentIntentId: payment.intentId } });
    expect(stored).toMatchObject({ status: 'settled', sandbox: true, settledAt: authorised.settleAfter });
  });

  it('returns the first authorisation when execute runs again, advanced once it has settled', async () => {
    const payment = await intent();
    const [first, second] = await Promise.all([rails.card.execute(payment), rails.card.execute(payment)]);
    expect(second).toEqual(first);

    advance(CARD_DELAY_MS);
    const third = await rails.card.execute(payment);

    expect(await operationsOf(payment.intentId)).toBe(1);
    expect(third).toMatchObject({ reference: first.reference, status: 'settled' });
  });

  it.each(CARD_DECLINES.map((decline) => [decline.code, decline] as const))(
    'declines %s at authorisation for an amount ending in its cents',
    async (_code, decline) => {
      const payment = await intent({ amount: `40.${decline.cents}` });

      const result = await rails.card.execute(payment);

      expect(result).toMatchObject({ status: 'declined', declineCode: decline.code, declineMessage: decline.message, sandbox: true, settleAfter: null });
      advance(CARD_DELAY_MS * 10);
      expect(await rails.card.status(payment.intentId)).toEqual(result);
      const error = declinedError(result);
      expect(error.code).toBe('PAYMENT_DECLINED');
      expect(error.message).toBe(decline.message);
    },
  );

  it.each(CARD_DECLINES.map((decline) => [decline.code] as const))('declines %s when metadata.sandbox_outcome names it', async (code) => {
    const payment = await intent({ amount: '40.00', metadata: { sandbox_outcome: code } });
    const result = await rails.card.execute(payment);
    expect(result).toMatchObject({ status: 'declined', declineCode: code });
  });

  it('approves a declining amount when metadata.sandbox_outcome is approved', async () => {
    const payment = await intent({ amount: '40.51', metadata: { sandbox_outcome: 'approved' } });
    expect((await rails.card.execute(payment)).status).toBe('pending');
  });

  it('quotes a card fee of 2.9% + 0.30 and the settlement delay', async () => {
    const payment = await intent({ amount: '100.00' });
    expect(await rails.card.quote(payment)).toEqual({ rail: 'card', available: true, fee: usd('3.20'), estimatedSettlementMs: CARD_DELAY_MS, sandbox: true });
  });

  it('is unavailable below the card minimum and for an unknown sandbox outcome, and execute refuses both', async () => {
    const small = await intent({ amount: '0.49' });
    expect(await rails.card.quote(small)).toMatchObject({ available: false, reason: 'Card payments must be at least 0.50 USDC' });
    expect(await errorOf(rails.card.execute(small))).toEqual({ code: 'RAIL_UNAVAILABLE', message: 'Card payments must be at least 0.50 USDC' });
    expect(await operationsOf(small.intentId)).toBe(0);

    const unknown = await intent({ metadata: { sandbox_outcome: 'R01' } });
    const quote = await rails.card.quote(unknown);
    expect(quote.available).toBe(false);
    expect(quote.reason).toMatch(/^metadata.sandbox_outcome "R01" is not a card sandbox outcome; use one of approved, insufficient_funds, /);
  });
});

describe('bank rail (sandbox)', () => {
  it('is pending until the network has processed the transfer, then settled', async () => {
    const payment = await intent({ amount: '250.00' });
    const submittedAt = clock;

    const submitted = await rails.bank.execute(payment);

    expect(submitted).toMatchObject({ rail: 'bank', status: 'pending', sandbox: true, settledAt: null });
    expect(submitted.reference).toMatch(/^bank_tr_[0-9a-f]{24}$/);
    expect(submitted.settleAfter).toEqual(new Date(submittedAt.getTime() + BANK_DELAY_MS));
    expect(submitted.details).toMatchObject({ destination: 'acct_payee_001' });

    advance(BANK_DELAY_MS - 1);
    expect((await rails.bank.status(payment.intentId)).status).toBe('pending');
    advance(1);
    expect(await rails.bank.status(payment.intentId)).toMatchObject({ status: 'settled', settledAt: submitted.settleAfter, declineCode: null });
    expect(await operationsOf(payment.intentId)).toBe(1);
  });

  it.each(BANK_RETURNS.map((entry) => [entry.code, entry] as const))(
    'returns %s after the settlement delay for an amount ending in its cents',
    async (_code, entry) => {
      const payment = await intent({ amount: `90.${entry.cents}` });

      const submitted = await rails.bank.execute(payment);
      expect(submitted.status).toBe('pending');

      advance(BANK_DELAY_MS);
      const returned = await rails.bank.status(payment.intentId);

      expect(returned).toMatchObject({ status: 'declined', declineCode: entry.code, declineMessage: entry.message, settledAt: null, reference: submitted.reference });
      expect(await rails.bank.execute(payment)).toEqual(returned);
      const stored = await prisma.railOperation.findUniqueOrThrow({ where: { paymentIntentId: payment.intentId } });
      expect(stored).toMatchObject({ status: 'declined', declineCode: entry.code });
    },
  );

  it.each(BANK_RETURNS.map((entry) => [entry.code] as const))('returns %s when metadata.sandbox_outcome names it', async (code) => {
    const payment = await intent({ amount: '90.00', metadata: { sandbox_outcome: code } });
    await rails.bank.execute(payment);
    advance(BANK_DELAY_MS);
    expect(await rails.bank.status(payment.intentId)).toMatchObject({ status: 'declined', declineCode: code });
  });

  it('is unavailable without a destination', async () => {
    const payment = await intent({ toAddress: null, merchant: null });
    expect(await rails.bank.quote(payment)).toMatchObject({
      available: false,
      reason: 'A bank transfer needs a destination: give the payee account as toAddress, or the merchant',
    });
    expect((await errorOf(rails.bank.execute(payment))).code).toBe('RAIL_UNAVAILABLE');
  });

  it('is unavailable above the same-day ACH limit', async () => {
    const payment = await intent({ amount: '1000000.01' });
    expect(await rails.bank.quote(payment)).toMatchObject({ available: false, reason: 'Bank transfers are limited to 1000000.00 USDC each' });
  });

  it('quotes 0.8% capped at 5.00', async () => {
    expect((await rails.bank.quote(await intent({ amount: '100.00' }))).fee).toBe(usd('0.80'));
    expect((await rails.bank.quote(await intent({ amount: '10000.00' }))).fee).toBe(usd('5.00'));
  });
});

describe('the sandbox simulators without a settlement delay', () => {
  it('settle an approved card authorisation at once, with no settlement time, and decline at authorisation as before', async () => {
    const card = createCardRail({ prisma, now: () => clock, settlementDelayMs: 0 });
    const approved = await card.execute(await intent({ amount: '25.00' }));
    expect(approved).toMatchObject({ status: 'settled', settledAt: clock, settleAfter: null, details: { authorizationCode: approved.reference.slice(-6).toUpperCase() } });
    expect(await card.execute(await intent({ amount: '40.51' }))).toMatchObject({ status: 'declined', declineCode: 'insufficient_funds', settleAfter: null });
  });

  it('answer a bank transfer on its first execute: settled, or returned, at the time it was submitted', async () => {
    const bank = createBankRail({ prisma, now: () => clock, settlementDelayMs: 0 });
    expect(await bank.execute(await intent({ amount: '250.00' }))).toMatchObject({ status: 'settled', settleAfter: clock, settledAt: clock });
    expect(await bank.execute(await intent({ amount: '90.61' }))).toMatchObject({ status: 'declined', declineCode: 'R01', settleAfter: clock, settledAt: null });
  });
});

describe('x402-base rail', () => {
  it('quotes unavailable with the reason and refuses to execute, recording nothing', async () => {
    const payment = await intent();

    expect(await rails['x402-base'].quote(payment)).toMatchObject({ rail: 'x402-base', available: false, reason: X402_INTENT_REASON });
    expect(await errorOf(rails['x402-base'].execute(payment))).toEqual({ code: 'RAIL_UNAVAILABLE', message: X402_INTENT_REASON });
    expect(await operationsOf(payment.intentId)).toBe(0);
    expect((await errorOf(rails['x402-base'].status(payment.intentId))).code).toBe('NOT_FOUND');
  });
});

describe('selectRail', () => {
  it('chooses the ledger when no rail is requested', async () => {
    const { rail, quote } = await selectRail(rails, null, await intent());
    expect(rail.name).toBe('ledger');
    expect(quote.available).toBe(true);
  });

  it('chooses the requested rail with its quote', async () => {
    const { rail, quote } = await selectRail(rails, 'bank', await intent());
    expect(rail.name).toBe('bank');
    expect(quote).toMatchObject({ rail: 'bank', sandbox: true, estimatedSettlementMs: BANK_DELAY_MS });
  });

  it('refuses an unknown rail', async () => {
    expect(await errorOf(selectRail(rails, 'paypal', await intent()))).toEqual({
      code: 'RAIL_UNAVAILABLE',
      message: 'Rail must be one of ledger, x402-base, solana, card, bank',
    });
  });

  it('refuses a currency the rail does not carry', async () => {
    expect(await errorOf(selectRail(rails, 'x402-base', await intent({ currency: 'USDT' })))).toEqual({
      code: 'RAIL_UNAVAILABLE',
      message: 'The x402-base rail does not carry USDT; it carries USDC',
    });
  });

  it('refuses a rail whose quote is unavailable, with its reason', async () => {
    expect(await errorOf(selectRail(rails, 'x402-base', await intent()))).toEqual({ code: 'RAIL_UNAVAILABLE', message: X402_INTENT_REASON });
    expect(await errorOf(selectRail(rails, 'card', await intent({ amount: '0.10' })))).toEqual({
      code: 'RAIL_UNAVAILABLE',
      message: 'Card payments must be at least 0.50 USDC',
    });
  });
});

describe('solana rail (sandbox)', () => {
  const payee = 'GmaDrppBC7P5ARKV8g3djiwP89vz1jLK23V2GBjuAEGB';

  it('transfers the tokens on the in-process chain and records the transaction signature', async () => {
    const before = await rails.solana.payeeBalance(payee, 'USDC');
    const payment = await intent({ amount: '3.141592', toAddress: payee });

    const result = await rails.solana.execute(payment);

    expect(result).toMatchObject({ rail: 'solana', status: 'settled', sandbox: true, declineCode: null, settledAt: clock });
    expect(result.reference).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    expect(result.details).toMatchObject({
      signature: result.reference,
      destination: payee,
      destinationDerived: false,
      memo: `purser:${payment.intentId}`,
      amount: '3141592',
      currency: 'USDC',
    });
    expect(await rails.solana.payeeBalance(payee, 'USDC')).toBe(before + usd('3.141592'));
    expect(await rails.solana.payeeBalance(payee, 'USDT')).toBe(0n);
    expect(await rails.solana.status(payment.intentId)).toEqual(result);
  });

  it('transfers once per intent however often execute is called', async () => {
    const before = await rails.solana.payeeBalance(payee, 'USDT');
    const payment = await intent({ amount: '7.00', currency: 'USDT', toAddress: payee });

    const [first, second] = await Promise.all([rails.solana.execute(payment), rails.solana.execute(payment)]);
    const third = await rails.solana.execute(payment);

    expect(second).toEqual(first);
    expect(third).toEqual(first);
    expect(await operationsOf(payment.intentId)).toBe(1);
    expect(await rails.solana.payeeBalance(payee, 'USDT')).toBe(before + usd('7.00'));
  });

  it('pays a payee without a Solana address at an address derived from it, the same each time', async () => {
    const evmPayee = '0x1111111111111111111111111111111111111111';
    const first = await rails.solana.execute(await intent({ amount: '1.00', toAddress: evmPayee }));
    const second = await rails.solana.execute(await intent({ amount: '2.00', toAddress: evmPayee }));

    const derived = destinationOf({ intentId: 'unused', toAddress: evmPayee, merchant: null }).destination;
    expect(first.details).toMatchObject({ destination: derived, destinationDerived: true });
    expect(second.details.destination).toBe(derived);
    expect(second.reference).not.toBe(first.reference);
    expect(await rails.solana.payeeBalance(derived, 'USDC')).toBe(usd('3.00'));
  });

  it('quotes both currencies as sandbox with no fee to the payer', async () => {
    expect(await rails.solana.quote(await intent())).toEqual({ rail: 'solana', available: true, fee: 0n, estimatedSettlementMs: 0, sandbox: true });
  });
});
