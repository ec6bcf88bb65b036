/**
 * The internal ledger rail (the default): a custodial transfer inside Purser. The money moves
 * in the workflow's capture (hold -> payee); there is no outside network to wait for, so the
 * operation is settled the moment it is recorded.
 */
import { CURRENCIES } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { readOperation, recordOperationOnce, toRailResult } from '../rail-operations/operation-record';
import type { Clock, Rail } from '../rail-operations/rail';

export function createLedgerRail(deps: { prisma: PrismaClient; now: Clock }): Rail {
  const { prisma, now } = deps;
  const rail: Rail = {
    name: 'ledger',
    sandbox: false,
    currencies: CURRENCIES,

    async quote() {
      return { rail: 'ledger', available: true, fee: 0n, estimatedSettlementMs: 0, sandbox: false };
    },

    async execute(payment) {
      const { operation } = await recordOperationOnce(prisma, rail, payment.intentId, async () => ({
        reference: `ledger_${payment.intentId}`,
        status: 'settled',
        settledAt: now(),
        details: {
          from: payment.payer.walletAddress,
          to: payment.toAddress ?? payment.merchant,
          amount: payment.amount.toString(),
          currency: payment.currency,
        },
      }));
      return toRailResult(operation);
    },

    async status(intentId) {
      return toRailResult(await readOperation(prisma, intentId, 'ledger'));
    },
  };
  return rail;
}
