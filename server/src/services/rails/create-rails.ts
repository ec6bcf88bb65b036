/**
 * Every payment rail, built from its dependencies, and the choice of one for a payment.
 * Build the rails once per process: the Solana sandbox keeps its chain in memory.
 */
import { AppError, RAIL_MESSAGE, RAIL_NAMES, type RailName } from '@purser/core';
import type { PrismaClient } from '@purser/db';
import { createBankRail } from './bank-rail';
import { createCardRail } from './card-rail';
import { createLedgerRail } from './ledger-rail';
import type { Clock, Rail, RailPayment, RailQuote } from './rail';
import { createSolanaRail, type SolanaRail, type SolanaRailOptions } from './solana-rail';
import { createX402BaseRail, type X402RailDeps } from './x402-base-rail';

export type Rails = Record<RailName, Rail> & { solana: SolanaRail };

export interface CreateRailsOptions {
  prisma: PrismaClient;
  /** The simulators' clock: when asynchronous operations settle. */
  now?: Clock;
  card?: { settlementDelayMs?: number };
  bank?: { settlementDelayMs?: number };
  solana?: SolanaRailOptions;
  /** The chain and the key that decrypts agents' EVM keys; without them x402-base refuses. */
  x402?: X402RailDeps;
}

export function createRails(options: CreateRailsOptions): Rails {
  const { prisma, now = () => new Date() } = options;
  return {
    ledger: createLedgerRail({ prisma, now }),
    'x402-base': createX402BaseRail({ prisma, x402: options.x402 }),
    solana: createSolanaRail({ prisma, now, options: options.solana }),
    card: createCardRail({ prisma, now, settlementDelayMs: options.card?.settlementDelayMs }),
    bank: createBankRail({ prisma, now, settlementDelayMs: options.bank?.settlementDelayMs }),
  };
}

/**
 * The rail to pay with: `requested` (the intent's rail; the ledger when none), provided it
 * carries the payment's currency and its quote is available. Anything else is
 * RAIL_UNAVAILABLE with the reason, which the workflow reports as the intent's failure.
 */
export async function selectRail(
  rails: Rails,
  requested: string | null | undefined,
  payment: RailPayment,
): Promise<{ rail: Rail; quote: RailQuote }> {
  const name = requested ?? 'ledger';
  if (!(RAIL_NAMES as readonly string[]).includes(name)) throw new AppError('RAIL_UNAVAILABLE', RAIL_MESSAGE);
  const rail = rails[name as RailName];
  if (!rail.currencies.includes(payment.currency)) {
    throw new AppError('RAIL_UNAVAILABLE', `The ${rail.name} rail does not carry ${payment.currency}; it carries ${rail.currencies.join(', ')}`);
  }
  const quote = await rail.quote(payment);
  if (!quote.available) throw new AppError('RAIL_UNAVAILABLE', quote.reason ?? `The ${rail.name} rail cannot carry this payment`);
  return { rail, quote };
}
