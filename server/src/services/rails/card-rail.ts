/**
 * Sandbox card-network simulator (labelled sandbox everywhere), the card network described to
 * the shared simulator (simulated-rail.ts). It behaves like a card processor's test mode:
 * execute is the authorisation, approved or declined at once; an approved authorisation is
 * captured automatically and settles asynchronously, when the simulated clearing batch runs
 * `settlementDelayMs` later. No card and no money exist here.
 *
 * Outcomes are decided from the payment alone, so a restarted worker reaches the same answer:
 * `metadata.sandbox_outcome` names one ('approved' or a decline code), else the amount's
 * cents pick one from CARD_DECLINES (docs/rails.md has the table), else it is approved.
 */
import { formatDollars, UNITS_PER_DOLLAR } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import type { Clock, Rail } from '../rail-operations/rail';
import { sandboxRefusalFor, type SandboxRefusal } from './sandbox-outcomes';
import { createSimulatedRail } from './simulated-rail';

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
  return createSimulatedRail(
    {
      name: 'card',
      referencePrefix: 'card_auth_',
      outcomes: CARD_OUTCOMES,
      refusalFor: cardDeclineFor,
      refusesAt: 'authorisation',
      limit: (payment) => (payment.amount < CARD_MINIMUM_AMOUNT ? `Card payments must be at least ${formatDollars(CARD_MINIMUM_AMOUNT)} ${payment.currency}` : undefined),
      // A typical card processor's price: 2.9% + 0.30.
      fee: (amount) => (amount * 29n + 500n) / 1_000n + (3n * UNITS_PER_DOLLAR) / 10n,
      details: (payment) => ({
        network: 'sandbox card network',
        merchant: payment.merchant ?? payment.toAddress,
        amount: payment.amount.toString(),
        currency: payment.currency,
        capture: 'automatic',
      }),
      approvalDetails: (reference) => ({ authorizationCode: reference.slice(-6).toUpperCase() }),
    },
    { ...deps, settlementDelayMs: deps.settlementDelayMs ?? DEFAULT_CARD_SETTLEMENT_DELAY_MS },
  );
}
