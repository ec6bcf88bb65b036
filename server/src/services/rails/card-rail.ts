/**
 * Sandbox card-network simulator (labelled sandbox everywhere). It behaves like a card
 * processor's test mode: execute is the authorisation, approved or declined at once; an
 * approved authorisation is captured automatically and settles asynchronously, when the
 * simulated clearing batch runs `settlementDelayMs` later. No card and no money exist here.
 *
 * Outcomes are decided from the payment alone, so a restarted worker reaches the same answer:
 * `metadata.sandbox_outcome` names one ('approved' or a decline code), else the amount's
 * cents pick one from CARD_DECLINES (docs/rails.md has the table), else it is approved.
 */
import { randomBytes } from 'node:crypto';
import { AppError, CURRENCIES, formatDollars, UNITS_PER_DOLLAR } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import {
  sandboxRefusalFor,
  type SandboxRefusal,
  readOperation,
  recordOperationOnce,
  resolveOperation,
  sandboxOutcomeOf,
  toRailResult,
  type Clock,
  type Rail,
  type RailPayment,
  type StoredOperation,
} from './rail';

export const DEFAULT_CARD_SETTLEMENT_DELAY_MS = 2_000;
/** Card networks refuse tiny charges: their fixed fee would eat them (a common processor minimum). */
export const CARD_MINIMUM_AMOUNT = UNITS_PER_DOLLAR / 2n;

export type CardDecline = SandboxRefusal;

/** Declines, as card processors name them. Every one is final for the payment. */
export const CARD_DECLINES: readonly CardDecline[] = [
  { cents: 51, code: 'insufficient_funds', message: 'The card has insufficient funds to complete the purchase.' },
  { cents: 52, code: 'do_not_honor', message: 'The card issuer declined the payment without giving a reason (do not honor).' },
  { cents: 53, code: 'expired_card', message: 'The card has expired.' },
  { cents: 54, code: 'card_velocity_exceeded', message: "The payment exceeds the card's spending or velocity limit." },
  { cents: 55, code: 'processing_error', message: 'The card network could not process the authorisation; the card was not charged.' },
  { cents: 56, code: 'lost_card', message: 'The card issuer declined the payment: the card is reported lost.' },
  { cents: 57, code: 'stolen_card', message: 'The card issuer declined the payment: the card is reported stolen.' },
  { cents: 58, code: 'incorrect_cvc', message: "The card's security code (CVC) is incorrect." },
];

export const CARD_OUTCOMES = ['approved', ...CARD_DECLINES.map((decline) => decline.code)] as const;

/** The authorisation's outcome for a payment: null when approved. */
export function cardDeclineFor(payment: { amount: bigint; metadata: unknown }): CardDecline | null {
  return sandboxRefusalFor(payment, CARD_DECLINES, CARD_OUTCOMES, 'card');
}

export function createCardRail(deps: { prisma: PrismaClient; now: Clock; settlementDelayMs?: number }): Rail {
  const { prisma, now } = deps;
  const settlementDelayMs = deps.settlementDelayMs ?? DEFAULT_CARD_SETTLEMENT_DELAY_MS;

  function unavailableReason(payment: RailPayment): string | undefined {
    if (payment.amount < CARD_MINIMUM_AMOUNT) {
      return `Card payments must be at least ${formatDollars(CARD_MINIMUM_AMOUNT)} ${payment.currency}`;
    }
    return sandboxOutcomeOf(payment.metadata, CARD_OUTCOMES, 'card').error;
  }

  /** The clearing batch has run once settleAfter has passed. */
  async function advance(operation: StoredOperation): Promise<StoredOperation> {
    if (operation.status !== 'pending' || !operation.settleAfter || now() < operation.settleAfter) return operation;
    return resolveOperation(prisma, operation, { status: 'settled', settledAt: operation.settleAfter });
  }

  const rail: Rail = {
    name: 'card',
    sandbox: true,
    currencies: CURRENCIES,

    async quote(payment) {
      const reason = unavailableReason(payment);
      // A typical card processor's price: 2.9% + 0.30.
      const fee = (payment.amount * 29n + 500n) / 1_000n + (3n * UNITS_PER_DOLLAR) / 10n;
      return { rail: 'card', available: !reason, ...(reason && { reason }), fee, estimatedSettlementMs: settlementDelayMs, sandbox: true };
    },

    async execute(payment) {
      const { operation } = await recordOperationOnce(prisma, rail, payment.intentId, async () => {
        const reason = unavailableReason(payment);
        if (reason) throw new AppError('RAIL_UNAVAILABLE', reason);
        const reference = `card_auth_${randomBytes(12).toString('hex')}`;
        const details = {
          network: 'sandbox card network',
          merchant: payment.merchant ?? payment.toAddress,
          amount: payment.amount.toString(),
          currency: payment.currency,
          capture: 'automatic',
        };
        const decline = cardDeclineFor(payment);
        if (decline) return { reference, status: 'declined', declineCode: decline.code, declineMessage: decline.message, details };
        const authorisedAt = now();
        const authorizationCode = reference.slice(-6).toUpperCase();
        if (settlementDelayMs <= 0) return { reference, status: 'settled', settledAt: authorisedAt, details: { ...details, authorizationCode } };
        return { reference, status: 'pending', settleAfter: new Date(authorisedAt.getTime() + settlementDelayMs), details: { ...details, authorizationCode } };
      });
      return toRailResult(await advance(operation));
    },

    async status(intentId) {
      return toRailResult(await advance(await readOperation(prisma, intentId, 'card')));
    },
  };
  return rail;
}
