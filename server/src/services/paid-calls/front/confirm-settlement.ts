/**
 * The seller says it settled an intent's payment in `transactionHash`: one read of that
 * transaction decides, not the seller (each scheme knows what its settlement looks like on
 * chain). Otherwise (no such transaction, another one, not mined yet) nothing changes, null is
 * answered, and the workflow follows the payment on chain as always.
 */
import { isHex } from 'viem';
import { readOperation, type StoredOperation } from '../../rail-operations/operation-record';
import { schemeNamed } from '../schemes/lookup';
import type { SchemeContext } from '../schemes/payment-scheme';

export async function confirmSettlement(context: SchemeContext, intentId: string, transactionHash: string): Promise<StoredOperation | null> {
  const operation = await readOperation(context.prisma, intentId, 'x402-base');
  if (operation.status !== 'pending' || !isHex(transactionHash, { strict: true }) || transactionHash.length !== 66) return null;
  return schemeNamed(operation.details.scheme).confirm(context, operation, transactionHash);
}
