/**
 * Payment rails: one interface (quote, execute, status) over the internal ledger, x402 on
 * Base, Solana and the card and bank simulators (docs/rails.md).
 *
 * A rail never posts ledger entries: the payment workflow reserves the funds before execute
 * and captures or releases them after. A rail performs the rail-side operation and records
 * it once per payment intent as a RailOperation, so a retried activity or a restarted worker
 * that calls execute again gets the first operation back instead of paying twice.
 */
import { AppError, type Currency, type RailName } from '@purser/core';

/** What a rail needs to know about a payment: plain data, built from the intent. */
export interface RailPayment {
  intentId: string;
  /** Atomic units (6 decimals), > 0. */
  amount: bigint;
  currency: Currency;
  toAddress: string | null;
  merchant: string | null;
  geography: string | null;
  metadata: Record<string, unknown>;
  payer: { agentId: string; walletAddress: string; evmAddress: string | null };
}

export interface RailQuote {
  rail: RailName;
  available: boolean;
  /** Why the rail cannot carry this payment; set when available is false. */
  reason?: string;
  /**
   * What the rail's network would charge for this payment, in atomic units of its currency.
   * Informational: sandbox rails charge nothing and the workflow moves only the amount.
   */
  fee: bigint;
  estimatedSettlementMs: number;
  sandbox: boolean;
}

export type RailOperationState = 'pending' | 'settled' | 'declined';

/** JSON-safe details of an operation (network, authorisation code, signature, ...). */
export type RailDetails = Record<string, string | number | boolean | null>;

export interface RailResult {
  rail: RailName;
  /** The rail's own reference: authorisation id, transfer id, transaction signature. */
  reference: string;
  status: RailOperationState;
  declineCode: string | null;
  declineMessage: string | null;
  /** Pending operations: when the (simulated) network settles or returns them. */
  settleAfter: Date | null;
  settledAt: Date | null;
  sandbox: boolean;
  details: RailDetails;
}

export interface Rail {
  name: RailName;
  /** Simulators and test chains: labelled sandbox wherever they are shown. */
  sandbox: boolean;
  currencies: readonly Currency[];
  quote(payment: RailPayment): Promise<RailQuote>;
  /**
   * Performs the payment on the rail, once per intent: a second call returns the first
   * operation (advanced, when its settlement time has passed). A decline is a result with
   * status 'declined', not an error; RAIL_UNAVAILABLE is thrown when the rail cannot try.
   */
  execute(payment: RailPayment): Promise<RailResult>;
  /** The operation of the intent, advanced to settled or declined once its time has come. */
  status(intentId: string): Promise<RailResult>;
  /**
   * Ends a pending operation early where the rail can (an x402 authorisation is cancelled on
   * chain), then answers its state. Rails without it are followed with status until final.
   */
  abandon?(intentId: string): Promise<RailResult>;
}

export type Clock = () => Date;

/** Rails by name: the process's whole set, or the one a path of its own pays on. */
export type RailsByName = Partial<Record<RailName, Rail>>;

/**
 * The workflow's non-retryable failure for a declined result: PAYMENT_DECLINED with the
 * rail's message, and the rail's code in `details`.
 */
export function declinedError(result: RailResult): AppError {
  return new AppError('PAYMENT_DECLINED', result.declineMessage ?? `The ${result.rail} rail declined the payment`, {
    details: { rail: result.rail, reference: result.reference, declineCode: result.declineCode },
  });
}
