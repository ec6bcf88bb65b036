/**
 * The seller's `Payment-Receipt` after a paid MPP call (mppx's codec): which method settled, with
 * which transaction (`reference`). It is the seller's word: the front keeps it and reads the
 * transaction it names before believing it (front/confirm-settlement.ts).
 */
import { Receipt } from 'mppx';
import { headerValue } from '../x402/payment-required';

export const MPP_RECEIPT_HEADER = 'Payment-Receipt';

export interface MppReceipt {
  method: string;
  status: string;
  reference: string;
  timestamp: string;
}

/** The receipt in a seller's answer; null when it sent none or it cannot be read. */
export function readPaymentReceipt(headers: Record<string, string>): MppReceipt | null {
  const value = headerValue(headers, 'payment-receipt');
  if (value === undefined) return null;
  try {
    const { method, status, reference, timestamp } = Receipt.deserialize(value.trim());
    return { method, status, reference, timestamp };
  } catch {
    return null;
  }
}
