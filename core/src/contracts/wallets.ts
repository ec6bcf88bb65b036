/**
 * Contracts of the owner wallet: top-up, agent funding and the reads the dashboard makes.
 * Requests carry dollars (a number or a decimal string, spec section 7); past parsing,
 * amounts are bigints in atomic units. Responses carry dollars as numbers for display and
 * as full-precision decimal strings (`*_exact`) for anything that adds them up.
 */
import { z } from 'zod';
import { CURRENCIES, parseAmount } from '../money';

/** Spec section 5, Dashboard: the toasts shown for a bad top-up or funding request. */
export const TOP_UP_AMOUNT_MESSAGE = 'Please enter a valid amount';
export const FUND_AGENT_MESSAGE = 'Please select an agent and enter a valid amount';
export const CURRENCY_MESSAGE = 'Currency must be USDC or USDT';
export const IDEMPOTENCY_KEY_MESSAGE = 'Idempotency key must be 1 to 255 printable ASCII characters';
/** Same rule as the Idempotency-Key header. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Dashboard: recent transactions shows the newest 10 (spec section 9). */
export const RECENT_TRANSACTIONS_LIMIT = 10;

export const currencySchema = z.enum(CURRENCIES, { error: CURRENCY_MESSAGE });

/**
 * A positive dollar amount, parsed with parseAmount (at most 6 decimals; NaN, Infinity,
 * negatives, zero and out-of-range values refused), every failure reported as `message`.
 */
export function dollarAmountSchema(message: string) {
  return z.union([z.number(), z.string()], { error: message }).transform((value, ctx) => {
    try {
      return parseAmount(value);
    } catch {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
  });
}

/** Body field alternative to the Idempotency-Key header. */
export const idempotencyKeySchema = z.string({ error: IDEMPOTENCY_KEY_MESSAGE }).regex(IDEMPOTENCY_KEY_PATTERN, { error: IDEMPOTENCY_KEY_MESSAGE });

export const topUpWalletInput = z.object({
  amount: dollarAmountSchema(TOP_UP_AMOUNT_MESSAGE),
  currency: currencySchema.default('USDC'),
  idempotency_key: idempotencyKeySchema.optional(),
});
/** What a client sends: `{ amount: 10 | "10.50", currency?: "USDC" | "USDT" }`. */
export type TopUpWalletBody = z.input<typeof topUpWalletInput>;
/** After parsing: amount in atomic units. */
export type TopUpWalletInput = z.output<typeof topUpWalletInput>;

export const fundAgentInput = z.object({
  agent_id: z.uuid({ error: FUND_AGENT_MESSAGE }),
  amount: dollarAmountSchema(FUND_AGENT_MESSAGE),
  currency: currencySchema.default('USDC'),
  idempotency_key: idempotencyKeySchema.optional(),
});
export type FundAgentBody = z.input<typeof fundAgentInput>;
export type FundAgentInput = z.output<typeof fundAgentInput>;

// ---------------------------------------------------------------- responses

/** The owner's custodial wallet (spec section 3: id, user_id, balance_usdc, balance_usdt). */
export const ownerWalletView = z.object({
  id: z.string(),
  user_id: z.string(),
  balance_usdc: z.number(),
  balance_usdt: z.number(),
  balance_usdc_exact: z.string(),
  balance_usdt_exact: z.string(),
});
export type OwnerWalletView = z.infer<typeof ownerWalletView>;

/** A row of the owner's transactions (spec section 3), newest first in lists. */
export const ownerTransactionView = z.object({
  id: z.string(),
  wallet_id: z.string(),
  type: z.string(),
  description: z.string(),
  to_address: z.string().nullable(),
  amount: z.number(),
  amount_exact: z.string(),
  currency: currencySchema,
  created_at: z.string(),
});
export type OwnerTransactionView = z.infer<typeof ownerTransactionView>;

export const agentWalletBalanceView = z.object({
  id: z.string(),
  agent_id: z.string(),
  wallet_address: z.string(),
  balance_usdc: z.number(),
  balance_usdt: z.number(),
  balance_usdc_exact: z.string(),
  balance_usdt_exact: z.string(),
});
export type AgentWalletBalanceView = z.infer<typeof agentWalletBalanceView>;

export const topUpWalletResult = z.object({
  /** Top-ups come from a simulated funding source; no real money enters. */
  funding_source: z.literal('sandbox'),
  transaction: ownerTransactionView,
  ledger_transaction_id: z.string(),
  wallet: ownerWalletView,
});
export type TopUpWalletResult = z.infer<typeof topUpWalletResult>;

export const fundAgentResult = z.object({
  transaction: ownerTransactionView,
  agent_transaction_id: z.string(),
  ledger_transaction_id: z.string(),
  wallet: ownerWalletView,
  agent_wallet: agentWalletBalanceView,
});
export type FundAgentResult = z.infer<typeof fundAgentResult>;
