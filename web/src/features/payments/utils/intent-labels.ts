// How statuses, rails, paid-call protocols and request signatures are named and coloured in the
// console. The lists mirror core's INTENT_STATUSES, RAIL_NAMES (contracts/intents.ts) and
// PAYMENT_PROTOCOLS (contracts/payment-protocols.ts), checked against their types
// here so the bundle does not take in the contracts module and its policy engine for two arrays.
import type { HttpSignatureTag } from '@purser/core';
import type { IntentStatus, PaymentProtocol, RailName } from '../api/payment-types';

export const INTENT_STATUSES = [
  'created',
  'pending_approval',
  'approved',
  'processing',
  'settled',
  'rejected',
  'blocked',
  'failed',
  'expired',
  'cancelled',
] as const satisfies readonly IntentStatus[];

export const RAIL_NAMES = ['ledger', 'x402-base', 'solana', 'card', 'bank'] as const satisfies readonly RailName[];

/** The wire protocols a paid call (the x402-base rail) is paid in. */
export const PAYMENT_PROTOCOLS = ['x402', 'mpp'] as const satisfies readonly PaymentProtocol[];

// A status or rail the server adds later fails the type check here until it has a name.
type Missing<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : Exclude<All, Listed>;
const everyStatusListed: Missing<IntentStatus, (typeof INTENT_STATUSES)[number]> = true;
const everyRailListed: Missing<RailName, (typeof RAIL_NAMES)[number]> = true;
const everyProtocolListed: Missing<PaymentProtocol, (typeof PAYMENT_PROTOCOLS)[number]> = true;
void everyStatusListed;
void everyRailListed;
void everyProtocolListed;

export const STATUS_LABELS: Record<IntentStatus, string> = {
  created: 'Created',
  pending_approval: 'Pending approval',
  approved: 'Approved',
  processing: 'Processing',
  settled: 'Settled',
  rejected: 'Rejected',
  blocked: 'Blocked',
  failed: 'Failed',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

export type StatusTone = 'success' | 'warning' | 'info' | 'error' | 'neutral';

export const STATUS_TONES: Record<IntentStatus, StatusTone> = {
  created: 'info',
  pending_approval: 'warning',
  approved: 'info',
  processing: 'info',
  settled: 'success',
  rejected: 'error',
  blocked: 'error',
  failed: 'error',
  expired: 'neutral',
  cancelled: 'neutral',
};

export const RAIL_LABELS: Record<RailName, string> = {
  ledger: 'Ledger',
  'x402-base': 'x402 on Base',
  solana: 'Solana',
  card: 'Card',
  bank: 'Bank transfer',
};

export const PROTOCOL_LABELS: Record<PaymentProtocol, string> = {
  x402: 'x402',
  mpp: 'MPP',
};

/** As core's SANDBOX_RAILS: simulators and test chains, labelled sandbox wherever they are offered. */
export const SANDBOX_RAILS: readonly RailName[] = ['solana', 'card', 'bank'];

export function isIntentStatus(value: string): value is IntentStatus {
  return (INTENT_STATUSES as readonly string[]).includes(value);
}

export function isRailName(value: string): value is RailName {
  return (RAIL_NAMES as readonly string[]).includes(value);
}

export function isPaymentProtocol(value: string): value is PaymentProtocol {
  return (PAYMENT_PROTOCOLS as readonly string[]).includes(value);
}

/** A paid request's HTTP message signature tag (core's HTTP_SIGNATURE_TAGS): the protocol it speaks. */
export const SIGNATURE_TAG_LABELS: Record<HttpSignatureTag, string> = {
  'web-bot-auth': 'Web Bot Auth',
  'agent-payer-auth': 'Visa TAP (agent-payer-auth)',
};
