/**
 * Every payment rail, built from its dependencies, and the choice of one for a payment.
 * Build the rails once per process: the Solana sandbox keeps its chain in memory.
 */
import { AppError, RAIL_MESSAGE, RAIL_NAMES, X402_INTENT_REASON, type RailName } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { createBankRail } from './bank-rail';
import { createCardRail } from './card-rail';
import { createLedgerRail } from './ledger-rail';
import type { Clock, Rail, RailPayment, RailQuote, RailsByName } from '../rail-operations/rail';
import { createSolanaRail, type SolanaRail, type SolanaRailOptions } from './solana-rail';

export type Rails = Record<RailName, Rail> & { solana: SolanaRail };

export interface CreateRailsOptions {
  prisma: PrismaClient;
  /** The simulators' clock: when asynchronous operations settle. */
  now?: Clock;
  card?: { settlementDelayMs?: number };
  bank?: { settlementDelayMs?: number };
  solana?: SolanaRailOptions;
  /**
   * The x402-base rail, built where the chain is (services/paid-calls/create-x402-rail.ts); without
   * it the rail refuses every payment.
   */
  x402?: Rail;
}

export function createRails(options: CreateRailsOptions): Rails {
  const { prisma, now = () => new Date() } = options;
  return {
    ledger: createLedgerRail({ prisma, now }),
    'x402-base': options.x402 ?? x402WithoutChain,
    solana: createSolanaRail({ prisma, now, options: options.solana }),
    card: createCardRail({ prisma, now, settlementDelayMs: options.card?.settlementDelayMs }),
    bank: createBankRail({ prisma, now, settlementDelayMs: options.bank?.settlementDelayMs }),
  };
}

/** The x402-base rail of a process without an EVM chain: it refuses every payment, saying why. */
const x402WithoutChain: Rail = {
  name: 'x402-base',
  sandbox: true,
  currencies: ['USDC'],
  async quote(payment) {
    const reason = x402Reason(payment);
    return { rail: 'x402-base', available: false, reason, fee: 0n, estimatedSettlementMs: 2_000, sandbox: true };
  },
  async execute(payment) {
    throw new AppError('RAIL_UNAVAILABLE', x402Reason(payment));
  },
  async status(intentId) {
    throw new AppError('NOT_FOUND', `Payment intent ${intentId} has no operation on the x402-base rail yet`);
  },
};

function x402Reason(payment: RailPayment): string {
  const x402 = payment.metadata.x402;
  return x402 && typeof x402 === 'object' ? 'No EVM chain is configured in this process' : X402_INTENT_REASON;
}

/**
 * The rail to pay with: `requested` (the intent's rail; the ledger when none), provided it
 * carries the payment's currency and its quote is available. Anything else is
 * RAIL_UNAVAILABLE with the reason, which the workflow reports as the intent's failure.
 */
export async function selectRail(
  rails: RailsByName,
  requested: string | null | undefined,
  payment: RailPayment,
): Promise<{ rail: Rail; quote: RailQuote }> {
  const name = requested ?? 'ledger';
  if (!(RAIL_NAMES as readonly string[]).includes(name)) throw new AppError('RAIL_UNAVAILABLE', RAIL_MESSAGE);
  const rail = rails[name as RailName];
  if (!rail) throw new AppError('RAIL_UNAVAILABLE', `The ${name} rail is not available to this payment`);
  if (!rail.currencies.includes(payment.currency)) {
    throw new AppError('RAIL_UNAVAILABLE', `The ${rail.name} rail does not carry ${payment.currency}; it carries ${rail.currencies.join(', ')}`);
  }
  const quote = await rail.quote(payment);
  if (!quote.available) throw new AppError('RAIL_UNAVAILABLE', quote.reason ?? `The ${rail.name} rail cannot carry this payment`);
  return { rail, quote };
}
