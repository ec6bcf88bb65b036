/**
 * Sandbox bank-transfer simulator, modelled on ACH (labelled sandbox everywhere), the network
 * described to the shared simulator (simulated-rail.ts). Execute submits the transfer, which is
 * pending until the simulated network has processed it `settlementDelayMs` later (days on a
 * real network, seconds here); then it is settled, or returned by the receiving bank with an
 * ACH return code. No account and no money exist here.
 *
 * Returns are decided from the payment alone, so a restarted worker reaches the same answer:
 * `metadata.sandbox_outcome` names one ('settled' or a return code), else the amount's cents
 * pick one from BANK_RETURNS (docs/rails.md has the table), else the transfer settles.
 */
import { formatDollars, UNITS_PER_DOLLAR } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import type { Clock, Rail, RailPayment } from '../rail-operations/rail';
import { sandboxRefusalFor, type SandboxRefusal } from './sandbox-outcomes';
import { createSimulatedRail } from './simulated-rail';

export const DEFAULT_BANK_SETTLEMENT_DELAY_MS = 5_000;
/** Same-day ACH's per-payment limit. */
export const BANK_MAXIMUM_AMOUNT = 1_000_000n * UNITS_PER_DOLLAR;

export type BankReturn = SandboxRefusal;

/** ACH return codes (Nacha), as the receiving bank reports them. Every one is final. */
export const BANK_RETURNS: readonly BankReturn[] = [
  { cents: 61, code: 'R01', message: 'R01 Insufficient funds: the receiving account cannot cover the entry.' },
  { cents: 62, code: 'R02', message: 'R02 Account closed: the receiving account was closed.' },
  { cents: 63, code: 'R03', message: 'R03 No account / unable to locate account.' },
  { cents: 64, code: 'R04', message: 'R04 Invalid account number structure.' },
  { cents: 65, code: 'R08', message: 'R08 Payment stopped by the account holder.' },
  { cents: 66, code: 'R10', message: 'R10 Customer advises not authorized: the account holder disputes the entry.' },
  { cents: 67, code: 'R16', message: 'R16 Account frozen: the receiving account is frozen.' },
  { cents: 68, code: 'R29', message: 'R29 Corporate customer advises not authorized.' },
];

export const BANK_OUTCOMES = ['settled', ...BANK_RETURNS.map((entry) => entry.code)] as const;

/** The network's answer for a transfer: null when it settles. */
export function bankReturnFor(payment: { amount: bigint; metadata: unknown }): BankReturn | null {
  return sandboxRefusalFor(payment, BANK_RETURNS, BANK_OUTCOMES, 'bank');
}

export function createBankRail(deps: { prisma: PrismaClient; now: Clock; settlementDelayMs?: number }): Rail {
  return createSimulatedRail(
    {
      name: 'bank',
      referencePrefix: 'bank_tr_',
      outcomes: BANK_OUTCOMES,
      refusalFor: bankReturnFor,
      refusesAt: 'settlement',
      limit: bankLimit,
      // A typical ACH price: 0.8%, capped at 5.00.
      fee: (amount) => {
        const percent = (amount * 8n + 500n) / 1_000n;
        const cap = 5n * UNITS_PER_DOLLAR;
        return percent < cap ? percent : cap;
      },
      details: (payment) => ({
        network: 'sandbox ACH',
        destination: payment.toAddress ?? payment.merchant,
        amount: payment.amount.toString(),
        currency: payment.currency,
      }),
    },
    { ...deps, settlementDelayMs: deps.settlementDelayMs ?? DEFAULT_BANK_SETTLEMENT_DELAY_MS },
  );
}

function bankLimit(payment: RailPayment): string | undefined {
  if (!payment.toAddress && !payment.merchant) {
    return 'A bank transfer needs a destination: give the payee account as toAddress, or the merchant';
  }
  if (payment.amount > BANK_MAXIMUM_AMOUNT) {
    return `Bank transfers are limited to ${formatDollars(BANK_MAXIMUM_AMOUNT)} ${payment.currency} each`;
  }
  return undefined;
}
