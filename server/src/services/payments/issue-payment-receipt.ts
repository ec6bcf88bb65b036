/**
 * A settled payment's receipt: a compact JWS signed with the platform issuer key (the key that
 * signs agent credentials), so anyone holding it can check what Purser attests with a stock JOSE
 * library and the keys at /.well-known/jwt-vc-issuer, without asking Purser.
 *
 * Header { alg: EdDSA, typ: purser-receipt+jwt, kid }; claims as core's paymentReceiptClaims:
 * iss, sub (the paying agent's DID), jti (the intent id), iat (the settlement) and `receipt`,
 * the settled facts.
 *
 * Signed again on every request, never stored: Ed25519 signatures are deterministic (RFC 8032),
 * header and claims are canonical JSON, and every input is fixed once the payment settles (iat
 * is the settlement time, not the time of asking), so the same payment yields the same bytes
 * each time, and no schema change or backfill is needed for payments settled before receipts
 * existed. The receipt is only as stable as the issuer key: a new MASTER_KEY or public URL
 * signs, and publishes, a different one.
 *
 * Only the reader's own payment is found: an owner's, or for an agent one it made itself (as
 * GET /payment/{intentId} finds them); any other id is the same NOT_FOUND.
 */
import {
  AppError,
  canonicalJson,
  INTENT_NOT_FOUND_MESSAGE,
  PAYMENT_NOT_SETTLED_MESSAGE,
  PAYMENT_RECEIPT_TYP,
  railFromDb,
  SANDBOX_RAILS,
  toDecimalString,
  type PaymentReceiptClaims,
  type PaymentReceiptView,
} from '@purser/core';
import type { Prisma } from '@purser/db';
import type { AppDeps } from '../../deps';
import { isUuid } from '../agents/owned-agent';
import { getPlatformIssuer, ISSUER_ALG, type IssuerDeps } from '../identity/platform-issuer';

export type PaymentReceiptDeps = Pick<AppDeps, 'db'> & IssuerDeps;

/** Whose receipt: the owner's payments, or with `agentId` only those that agent made itself. */
export interface ReceiptReader {
  ownerId: string;
  agentId?: string;
}

/** Where the issuer's keys are published (served by http/identity-routes.ts): its metadata, and its JWKS. */
export const ISSUER_METADATA_PATH = '/.well-known/jwt-vc-issuer';
export const IDENTITY_JWKS_PATH = '/.well-known/jwks.json';
const AGENT_NOT_FOUND_MESSAGE = 'This agent has no such payment';
const TRANSACTION_HASH = /^0x[0-9a-fA-F]{64}$/;

const receiptSelect = {
  id: true,
  status: true,
  amount: true,
  currency: true,
  rail: true,
  toAddress: true,
  merchant: true,
  metadata: true,
  settledAt: true,
  agent: { select: { did: true } },
  railOperation: { select: { rail: true, reference: true, sandbox: true, settledAt: true, details: true } },
} as const satisfies Prisma.PaymentIntentSelect;

type ReceiptRow = Prisma.PaymentIntentGetPayload<{ select: typeof receiptSelect }>;

export async function issuePaymentReceipt(deps: PaymentReceiptDeps, reader: ReceiptReader, intentId: string): Promise<PaymentReceiptView> {
  const notFound = new AppError('NOT_FOUND', reader.agentId ? AGENT_NOT_FOUND_MESSAGE : INTENT_NOT_FOUND_MESSAGE);
  if (!isUuid(intentId)) throw notFound;
  const row = await deps.db.prisma.paymentIntent.findFirst({
    where: { id: intentId, ownerId: reader.ownerId, ...(reader.agentId ? { agentId: reader.agentId, createdBy: 'agent' as const } : {}) },
    select: receiptSelect,
  });
  if (!row) throw notFound;
  if (row.status !== 'settled') throw new AppError('CONFLICT', PAYMENT_NOT_SETTLED_MESSAGE);

  const issuer = await getPlatformIssuer(deps);
  const header = { alg: ISSUER_ALG, typ: PAYMENT_RECEIPT_TYP, kid: issuer.kid };
  const signingInput = `${base64url(canonicalJson(header))}.${base64url(canonicalJson(receiptClaims(issuer.issuer, row)))}`;
  return {
    receipt: `${signingInput}.${issuer.sign(signingInput)}`,
    issuer: issuer.issuer,
    kid: issuer.kid,
    jwks_url: `${issuer.issuer}${IDENTITY_JWKS_PATH}`,
    issuer_metadata_url: `${issuer.issuer}${ISSUER_METADATA_PATH}`,
  };
}

function receiptClaims(iss: string, row: ReceiptRow): PaymentReceiptClaims {
  const operation = row.railOperation;
  // The capture's time; a settled payment always has one, the operation's is the fallback.
  const settledAt = row.settledAt ?? operation?.settledAt;
  if (!settledAt) throw new AppError('INTERNAL', `Payment intent ${row.id} is settled but has no settlement time`);
  const rail = railFromDb(operation?.rail ?? row.rail ?? 'ledger');
  const details = isObject(operation?.details) ? operation.details : {};
  const transactionHash = rail === 'x402-base' && typeof details.transactionHash === 'string' && TRANSACTION_HASH.test(details.transactionHash) ? details.transactionHash : null;
  const x402 = rail === 'x402-base' ? x402Facts(row.metadata, details) : undefined;
  return {
    iss,
    sub: row.agent.did,
    jti: row.id,
    iat: Math.floor(settledAt.getTime() / 1000),
    receipt: {
      intent_id: row.id,
      amount: toDecimalString(row.amount),
      amount_atomic: row.amount.toString(),
      currency: row.currency,
      rail,
      sandbox: operation?.sandbox ?? SANDBOX_RAILS.includes(rail),
      to_address: row.toAddress,
      merchant: row.merchant,
      settlement_reference: transactionHash ?? operation?.reference ?? null,
      settled_at: settledAt.toISOString(),
      // canonicalJson leaves out what is undefined: only the facts the payment has.
      ...(x402 ? { x402 } : {}),
    },
  };
}

/** The resource, scheme and network of an x402 payment, as its intent's metadata and operation hold them. */
function x402Facts(metadata: Prisma.JsonValue, details: Record<string, unknown>): PaymentReceiptClaims['receipt']['x402'] {
  const meta = isObject(metadata) ? metadata : {};
  const x402 = isObject(meta.x402) ? meta.x402 : {};
  const requirement = isObject(x402.requirement) ? x402.requirement : {};
  const resource = isObject(x402.resource) ? x402.resource : {};
  const facts = {
    resource_url: text(resource.url) ?? text(meta.url) ?? text(requirement.resource),
    scheme: text(requirement.scheme),
    network: text(details.network) ?? text(requirement.network),
  };
  return Object.values(facts).some((value) => value !== undefined) ? facts : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function base64url(json: string): string {
  return Buffer.from(json).toString('base64url');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
