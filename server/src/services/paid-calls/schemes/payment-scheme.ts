/**
 * The contract every scheme folder implements (exact/, upto/, batch-settlement/): how Purser
 * prices a seller's requirement of that scheme, signs for it, checks what was signed against
 * what was priced and held, follows it on chain to its end, voids it, and confirms a settlement
 * a seller reports. The rail (create-x402-rail.ts) and the front (front/) look a scheme up
 * (lookup.ts) and call these; nothing outside the scheme folders reads a scheme's state.
 */
import type { PrismaClient } from '@purser/db';
import type { Address, LocalAccount } from 'viem';
import type { EvmChain } from '../../chain/evm-chain';
import type { NewOperation, StoredOperation } from '../../rail-operations/operation-record';
import type { RailPayment } from '../../rail-operations/rail';
import type { PayableScheme } from '@purser/core';
import type { MppChallenge } from '../mpp/payment-challenge';
import type { DecodedPaymentHeader } from '../x402/payment-header';
import type { X402IntentMetadata } from '../x402/intent-metadata';
import type { X402Version } from '../x402/payment-required';
import type { Expect } from './problems';

/** What a scheme's chain work needs: the database, the chain, and the key that opens agents' keys. */
export interface SchemeContext {
  prisma: PrismaClient;
  chain: EvmChain;
  masterKey: Buffer;
}

/** A requirement as Purser will pay it (front/price-requirement.ts). */
export interface PricedRequirement {
  x402Version: X402Version;
  scheme: PayableScheme;
  /** CAIP-2. */
  network: string;
  asset: Address;
  payTo: Address;
  /** Atomic units of USDC, > 0: the price, for `upto` the most the seller may settle, for a channel the deposit to hold. */
  amount: bigint;
  /** min(the seller's maxTimeoutSeconds, the deployment's maximum). */
  validitySeconds: number;
  /** `upto` only: the one account that may settle it (the seller's facilitator). */
  facilitator?: Address;
  /** `batch-settlement` only: the channel's terms. */
  channel?: ChannelTerms;
}

/** What a batch-settlement requirement asks of a channel. */
export interface ChannelTerms {
  /** Atomic units: the price of one call, what each voucher adds. */
  price: bigint;
  /** The seller's key for claims and refunds (extra.receiverAuthorizer). */
  receiverAuthorizer: Address;
  /** Seconds the payer waits for a timed withdrawal (extra.withdrawDelay, the contract's default when absent). */
  withdrawDelay: number;
  /** The seller's minimum deposit (extra.minDeposit), when it announced one. */
  minDeposit: bigint | null;
}

/** What a scheme adds to the common price: the amount to hold, and its own terms. */
export type SchemeTerms = Pick<PricedRequirement, 'amount' | 'facilitator' | 'channel'>;

/**
 * What a header must say to be used for a payment intent: what was priced (for `upto` the maximum,
 * with the facilitator the seller named, the only one who may settle), signed by the agent (the
 * authorizer), valid until `latestValidBefore` (unix seconds; for `upto`, Permit2's deadline) at most.
 */
export type AuthorizationTerms = Pick<PricedRequirement, 'x402Version' | 'scheme' | 'network' | 'asset' | 'payTo' | 'amount' | 'facilitator'> & {
  from: Address;
  latestValidBefore: bigint;
};

/** The USDC contract's EIP-712 domain, as the chain reads it. */
export type UsdcDomain = Awaited<ReturnType<EvmChain['usdcDomain']>>;

/** What opening a payment's operation takes; nothing is read on the way. */
export interface SigningFacts {
  network: string;
  payment: RailPayment;
  price: PricedRequirement;
  x402: X402IntentMetadata;
  payer: Address;
  account: LocalAccount;
  domain: UsdcDomain;
  /** The chain's latest block before signing: where the search for its redemption starts. */
  fromBlock: bigint;
  /** The intent's key: the payment identifier derives from it. */
  idempotencyKey: string;
}

/** What signing a priced requirement takes (besides the agent's key). */
export interface SignRequest {
  requirement: Record<string, unknown>;
  priced: PricedRequirement;
  domain: { name: string; version: string };
  resource?: { url: string; description?: string; mimeType?: string };
  /**
   * x402 v2: the payment's identifier (x402/payment-identifier.ts), sent as the payment-identifier
   * extension: the seller's declaration echoed as it was (sellers check the echo) with the id added.
   */
  paymentId?: { id: string; declared?: unknown };
  /** Paid over MPP: the challenge the credential answers (the `exact` authorisation is then an MPP credential). */
  mpp?: { challenge: MppChallenge };
}

/** A signed authorisation's terms, for the owner's payment page. */
export interface SignedTerms {
  from: string;
  to: string;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: string;
}

export interface PaymentScheme {
  name: PayableScheme;
  /** The x402 versions the scheme exists in. */
  versions: readonly X402Version[];
  /** How the asset moves: the only transfer method signed for it (extra.assetTransferMethod). */
  transferMethod: 'eip3009' | 'permit2';
  /**
   * Where an agent's request pays it (front/pay-in-request.ts): signed in the transaction that
   * holds the funds, signed just after it commits (what it signs needs a chain write first), or
   * left to the payment workflow (a channel: the workflow records it, the calls sign vouchers).
   */
  paidInRequest: 'in-transaction' | 'after-commit' | 'by-workflow';
  /** Paid through a channel, one voucher per call (no single header is signed for it). */
  channel: boolean;
  /** The scheme's part of the price, after the checks every requirement passes; throws X402_REFUSED. */
  price(extra: Record<string, unknown>, amount: bigint): SchemeTerms;
  /** Signs the payment header for a priced requirement with the agent's key (the official client, Purser's window). */
  sign(account: LocalAccount, request: SignRequest): Promise<string>;
  /**
   * The payment's rail operation, once the gate and the hold have passed: the signed authorisation
   * checked against the price (pending, holding the header), a declined one when the check fails,
   * or for a channel its record (nothing signed until the first call).
   */
  open(context: SchemeContext, facts: SigningFacts): Promise<NewOperation>;
  /** Adds to `expect` every way the decoded header differs from the terms, signature included. */
  check(decoded: DecodedPaymentHeader, terms: AuthorizationTerms, domain: UsdcDomain, expect: Expect): Promise<void>;
  /** The pending operation advanced to how the chain says it ended; as it was while it has not. */
  follow(context: SchemeContext, operation: StoredOperation): Promise<StoredOperation>;
  /** When a pending operation is next looked at without a signal. */
  nextLook(context: SchemeContext, operation: StoredOperation, now: number): Date;
  /** Voids what was signed, where the agent can (then follows it); throws while the chain cannot tell. */
  cancel(context: SchemeContext, operation: StoredOperation, agentId: string): Promise<StoredOperation>;
  /** The operation settled by the transaction a seller named, when one read of it confirms; null otherwise. */
  confirm(context: SchemeContext, operation: StoredOperation, transactionHash: `0x${string}`): Promise<StoredOperation | null>;
  /** The terms a decoded header of this scheme signed, for display. */
  signedTerms(decoded: DecodedPaymentHeader): SignedTerms;
}
