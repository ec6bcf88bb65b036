/**
 * What the front keeps with a paid call's rail operation, beside its scheme's state: the seller's
 * answer to a settled payment (so the same call repeated gets it again instead of a refusal to
 * redeem its header twice), the seller's receipt as checked, and the HTTP signature the paid
 * request carried. And what the front reads of any
 * operation: the header it hands out, the window it may be used in, its transaction once settled.
 */
import type { PrismaClient } from '@purser/db';
import { mppReceiptView, requestSignatureView, type MppReceiptView, type RequestSignatureView, type X402UpstreamResponseView } from '@purser/core';
import type { Address } from 'viem';
import { z } from 'zod';
import { mergeDetails } from '../schemes/operation-details';
import type { SellerReceipt } from './seller-receipts';

const KeptAnswers = z.looseObject({
  scheme: z.string().optional(),
  network: z.string().optional(),
  payer: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/)
    .transform((value) => value as Address)
    .optional(),
  paymentHeader: z.string().optional(),
  validBefore: z.string().optional(),
  latestValidBefore: z.string().optional(),
  transactionHash: z.string().nullable().optional(),
  sellerResponse: z.custom<Omit<X402UpstreamResponseView, 'payment'>>((value) => typeof value === 'object' && value !== null).optional(),
  sellerReceipt: z.custom<SellerReceipt>((value) => typeof value === 'object' && value !== null).optional(),
  requestSignature: requestSignatureView.optional(),
  mppReceipt: mppReceiptView.optional(),
});
export type KeptAnswers = z.infer<typeof KeptAnswers>;

/** The front's view of an operation's details (anything unreadable as absent). */
export function keptAnswersOf(details: unknown): KeptAnswers {
  const parsed = KeptAnswers.safeParse(details);
  return parsed.success ? parsed.data : {};
}

/** What a kept seller response may weigh; a larger one is answered once and not kept. */
const KEPT_RESPONSE_MAX_BYTES = 256 * 1024;
/** What a kept seller receipt may weigh. */
const KEPT_RECEIPT_MAX_BYTES = 16 * 1024;

/**
 * The payment's transaction hash, once settled. With `keep`, the seller's answer to a settled
 * payment is kept with its rail operation in the same statement. It is merged into the stored
 * details once the operation is settled, after the workflow wrote its own details, so neither
 * write loses the other's.
 */
/**
 * What the call learnt, kept with its operation in one statement: the signature the paid request
 * carried (always), and the seller's answer (once the operation is settled, and only up to
 * KEPT_RESPONSE_MAX_BYTES). Answers the settlement's transaction hash, if the operation has one.
 */
export async function keepSellerResponse(
  prisma: PrismaClient,
  intentId: string,
  keep: X402UpstreamResponseView | null,
  requestSignature: RequestSignatureView | null = null,
): Promise<string | null> {
  const response = keep && Buffer.byteLength(keep.body) <= KEPT_RESPONSE_MAX_BYTES ? (({ payment: _payment, ...kept }) => kept)(keep) : null;
  const always: Partial<KeptAnswers> = requestSignature ? { requestSignature } : {};
  const settled: Partial<KeptAnswers> = response ? { sellerResponse: response } : {};
  const updated = await mergeDetails(prisma, { intentId }, always, { returning: ['transactionHash'], whileStatus: { status: 'settled', patch: settled } });
  return keptAnswersOf(updated).transactionHash ?? null;
}

export async function keepSellerReceipt(prisma: PrismaClient, intentId: string, receipt: SellerReceipt): Promise<void> {
  if (Buffer.byteLength(JSON.stringify(receipt)) > KEPT_RECEIPT_MAX_BYTES) return;
  const patch: Partial<KeptAnswers> = { sellerReceipt: receipt };
  await mergeDetails(prisma, { intentId, status: 'settled' }, patch, { returning: [] });
}

/** Keeps the HTTP message signature the paid request carried, whatever state the operation is in. */
export async function keepRequestSignature(prisma: PrismaClient, intentId: string, signature: RequestSignatureView): Promise<void> {
  const patch: Partial<KeptAnswers> = { requestSignature: signature };
  await mergeDetails(prisma, { intentId }, patch, { returning: [] });
}

/** Keeps an MPP seller's Payment-Receipt (with whether the chain confirms it), whatever state the operation is in: the owner sees what the seller claimed. */
export async function keepMppReceipt(prisma: PrismaClient, intentId: string, receipt: MppReceiptView): Promise<MppReceiptView> {
  if (Buffer.byteLength(JSON.stringify(receipt)) > KEPT_RECEIPT_MAX_BYTES) return receipt;
  const patch: Partial<KeptAnswers> = { mppReceipt: receipt };
  await mergeDetails(prisma, { intentId }, patch, { returning: [] });
  return receipt;
}
