/**
 * The sandbox rails' one simulator (labelled sandbox everywhere): card-rail.ts and bank-rail.ts
 * are each a network description handed to it. Execute checks the network's limits, records
 * one operation per intent under a fresh reference, and the operation stays pending until
 * `settlementDelayMs` after execute; then it settles, or is refused with one of the network's
 * codes. No card, account or money exists here.
 *
 * Outcomes are decided from the payment alone, so a restarted worker reaches the same answer:
 * `metadata.sandbox_outcome` names one (the success or a refusal code), else the amount's cents
 * pick a refusal (docs/rails.md has the tables), else it goes through.
 */
import { randomBytes } from 'node:crypto';
import { AppError, CURRENCIES } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { readOperation, recordOperationOnce, resolveOperation, toRailResult, type NewOperation, type StoredOperation } from '../rail-operations/operation-record';
import type { Clock, Rail, RailDetails, RailPayment } from '../rail-operations/rail';
import { sandboxOutcomeOf, type SandboxRefusal } from './sandbox-outcomes';

export interface SimulatedNetwork {
  name: 'card' | 'bank';
  /** Begins each operation's reference, which goes on with 24 random hex digits. */
  referencePrefix: string;
  /** What `metadata.sandbox_outcome` may name: the success, then each refusal's code. */
  outcomes: readonly string[];
  /** The network's refusal of a payment, final for it (sandboxRefusalFor over its table); null when it goes through. */
  refusalFor(payment: { amount: bigint; metadata: unknown }): SandboxRefusal | null;
  /**
   * When the network refuses. 'authorisation': execute answers declined at once, and an approved
   * payment settles at once when the delay is 0 or less (a card processor). 'settlement': execute
   * always submits, and the refusal comes when the operation falls due (an ACH return).
   */
  refusesAt: 'authorisation' | 'settlement';
  /** Why the network cannot carry this payment (an amount or a destination it refuses), if so. */
  limit(payment: RailPayment): string | undefined;
  /** What the real network would charge, in atomic units; informational only. */
  fee(amount: bigint): bigint;
  details(payment: RailPayment): RailDetails;
  /** What an approved authorisation adds to the details (its authorisation code). */
  approvalDetails?(reference: string): RailDetails;
}

export function createSimulatedRail(network: SimulatedNetwork, deps: { prisma: PrismaClient; now: Clock; settlementDelayMs: number }): Rail {
  const { prisma, now, settlementDelayMs } = deps;
  const { name } = network;

  function unavailableReason(payment: RailPayment): string | undefined {
    return network.limit(payment) ?? sandboxOutcomeOf(payment.metadata, network.outcomes, name).error;
  }

  function perform(payment: RailPayment): NewOperation {
    const reason = unavailableReason(payment);
    if (reason) throw new AppError('RAIL_UNAVAILABLE', reason);
    const reference = `${network.referencePrefix}${randomBytes(12).toString('hex')}`;
    const details = network.details(payment);
    if (network.refusesAt === 'settlement') {
      return { reference, status: 'pending', settleAfter: new Date(now().getTime() + Math.max(settlementDelayMs, 0)), details };
    }
    const refused = network.refusalFor(payment);
    if (refused) return { reference, status: 'declined', declineCode: refused.code, declineMessage: refused.message, details };
    const authorisedAt = now();
    const approved = { ...details, ...network.approvalDetails?.(reference) };
    if (settlementDelayMs <= 0) return { reference, status: 'settled', settledAt: authorisedAt, details: approved };
    return { reference, status: 'pending', settleAfter: new Date(authorisedAt.getTime() + settlementDelayMs), details: approved };
  }

  /** Once settleAfter has passed the network has answered: settled, or (at settlement) refused. */
  async function advance(operation: StoredOperation): Promise<StoredOperation> {
    if (operation.status !== 'pending' || !operation.settleAfter || now() < operation.settleAfter) return operation;
    const refused = network.refusesAt === 'settlement' ? network.refusalFor(operation.intent) : null;
    return resolveOperation(
      prisma,
      operation,
      refused
        ? { status: 'declined', declineCode: refused.code, declineMessage: refused.message }
        : { status: 'settled', settledAt: operation.settleAfter },
    );
  }

  const rail: Rail = {
    name,
    sandbox: true,
    currencies: CURRENCIES,

    async quote(payment) {
      const reason = unavailableReason(payment);
      return { rail: name, available: !reason, ...(reason && { reason }), fee: network.fee(payment.amount), estimatedSettlementMs: settlementDelayMs, sandbox: true };
    },

    async execute(payment) {
      const { operation } = await recordOperationOnce(prisma, rail, payment.intentId, async () => perform(payment));
      return toRailResult(await advance(operation));
    },

    async status(intentId) {
      return toRailResult(await advance(await readOperation(prisma, intentId, name)));
    },
  };
  return rail;
}
