/**
 * Sandbox bank-transfer simulator, modelled on ACH (labelled sandbox everywhere). Execute
 * submits the transfer, which is pending until the simulated network has processed it
 * `settlementDelayMs` later (days on a real network, seconds here); then it is settled, or
 * returned by the receiving bank with an ACH return code. No account and no money exist here.
 *
 * Returns are decided from the payment alone, so a restarted worker reaches the same answer:
 * `metadata.sandbox_outcome` names one ('settled' or a return code), else the amount's cents
 * pick one from BANK_RETURNS (docs/rails.md has the table), else the transfer settles.
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
  const { prisma, now } = deps;
  const settlementDelayMs = deps.settlementDelayMs ?? DEFAULT_BANK_SETTLEMENT_DELAY_MS;

  function unavailableReason(payment: RailPayment): string | undefined {
    if (!payment.toAddress && !payment.merchant) {
      return 'A bank transfer needs a destination: give the payee account as toAddress, or the merchant';
    }
    if (payment.amount > BANK_MAXIMUM_AMOUNT) {
      return `Bank transfers are limited to ${formatDollars(BANK_MAXIMUM_AMOUNT)} ${payment.currency} each`;
    }
    return sandboxOutcomeOf(payment.metadata, BANK_OUTCOMES, 'bank').error;
  }

  /** Once settleAfter has passed the network has answered: settled, or returned. */
  async function advance(operation: StoredOperation): Promise<StoredOperation> {
    if (operation.status !== 'pending' || !operation.settleAfter || now() < operation.settleAfter) return operation;
    const returned = bankReturnFor(operation.intent);
    return resolveOperation(
      prisma,
      operation,
      returned
        ? { status: 'declined', declineCode: returned.code, declineMessage: returned.message }
        : { status: 'settled', settledAt: operation.settleAfter },
    );
  }

  const rail: Rail = {
    name: 'bank',
    sandbox: true,
    currencies: CURRENCIES,

    async quote(payment) {
      const reason = unavailableReason(payment);
      // A typical ACH price: 0.8%, capped at 5.00.
      const percent = (payment.amount * 8n + 500n) / 1_000n;
      const cap = 5n * UNITS_PER_DOLLAR;
      const fee = percent < cap ? percent : cap;
      return { rail: 'bank', available: !reason, ...(reason && { reason }), fee, estimatedSettlementMs: settlementDelayMs, sandbox: true };
    },

    async execute(payment) {
      const { operation } = await recordOperationOnce(prisma, rail, payment.intentId, async () => {
        const reason = unavailableReason(payment);
        if (reason) throw new AppError('RAIL_UNAVAILABLE', reason);
        return {
          reference: `bank_tr_${randomBytes(12).toString('hex')}`,
          status: 'pending',
          settleAfter: new Date(now().getTime() + Math.max(settlementDelayMs, 0)),
          details: {
            network: 'sandbox ACH',
            destination: payment.toAddress ?? payment.merchant,
            amount: payment.amount.toString(),
            currency: payment.currency,
          },
        };
      });
      return toRailResult(await advance(operation));
    },

    async status(intentId) {
      return toRailResult(await advance(await readOperation(prisma, intentId, 'bank')));
    },
  };
  return rail;
}
