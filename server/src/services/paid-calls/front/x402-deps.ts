/**
 * What the agent API's x402 steps take from the process (front door operations and the front),
 * and what /x402/fetch answers.
 */
import type { X402SignedPaymentView, X402UpstreamResponseView } from '@purser/core';
import type { AppDeps } from '../../../deps';
import type { SchemeContext } from '../schemes/payment-scheme';

export type X402Deps = Pick<AppDeps, 'db' | 'temporal' | 'chain' | 'outbound' | 'publicUrl' | 'logger' | 'x402MaxValiditySeconds' | 'masterKey'> & Partial<Pick<AppDeps, 'events'>>;

/** What /x402/fetch answers: the upstream's answer, or the payment waiting for approval. */
export type FetchOutcome = { kind: 'response'; view: X402UpstreamResponseView } | { kind: 'waiting'; view: X402SignedPaymentView };

/** The schemes' view of the process: the database, the chain, the master key. */
export function schemeContext(deps: Pick<X402Deps, 'db' | 'chain' | 'masterKey'>): SchemeContext {
  return { prisma: deps.db.prisma, chain: deps.chain, masterKey: deps.masterKey };
}
