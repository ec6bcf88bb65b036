/**
 * The payment workflow's step contract: what each step of the engine takes and answers. The
 * workflow (@purser/workflows) calls these steps; the server implements them (its
 * services/payments) and hands them to the worker. Both depend on this contract, neither on
 * the other.
 *
 * Everything that crosses the activity boundary is JSON: amounts are decimal strings of atomic
 * units, never bigints (Temporal's payload converter cannot carry them).
 */
import type { IntentStatus, PaymentStep, RailName, WebhookEventType } from './intents';

/** The audit actor of everything the payment workflow records. */
export const PAYMENT_WORKFLOW_ACTOR = 'system:payment-workflow';

/** What the policy gate needs, as JSON: amounts are decimal strings of atomic units. */
export interface GateInput {
  intent: {
    amount: string;
    currency: 'USDC' | 'USDT';
    category: string | null;
    merchant: string | null;
    /** Where the money goes; address entries of merchant rules judge it. */
    toAddress: string | null;
    /** False when the merchant is only the agent's word (an x402 URL Purser did not fetch). */
    merchantVerified: boolean;
    country: string | null;
    kyaTier: string | null;
  };
  agent: { kyaTier: string; spendingRules: { maxTransactionAmount: string; maxDailyLimit: string; approvalThreshold: string | null } };
  /** Applicable policies; `rules` in document form (dollars), parsed again by the workflow. */
  policies: { id: string; name: string; version: number; rules: unknown; shadow: boolean }[];
  usage: { spentInWindow: string; spentThisMonth: string };
  timeZone: string;
  /** Changes whenever anything the decision depends on changes; applyGate refuses a stale one. */
  revision: string;
  status: IntentStatus;
}

/** A policy evaluation, as the workflow hands it back for recording. */
export interface GateDecision {
  decision: 'allow' | 'require_approval' | 'deny';
  fired: { rule: string; outcome: 'deny' | 'require_approval'; code: string; message: string; policyId?: string; shadow: boolean }[];
  shadow: { policyId: string; name: string; version: number; decision: 'allow' | 'require_approval' | 'deny' }[];
  timeBoxMs: number | null;
  evaluatedAt: string;
}

/** applyGate's answer: the intent's status now, or `stale` when the inputs changed meanwhile. */
export type GateOutcome = { status: IntentStatus } | { stale: true };

export type ApprovalOutcome = 'pending' | 'approved' | 'rejected' | 'expired' | 'cancelled' | 'blocked';

export interface RailStepResult {
  rail: RailName;
  sandbox: boolean;
  reference: string;
  status: 'settled' | 'pending';
  /** Pending operations: when to ask again (ISO time), null to use the default poll interval. */
  checkAfter: string | null;
}

/**
 * authorize's answer. Authorized: the gate allowed the payment, its rail quoted it and its funds
 * are held, all in one transaction (the intent is processing). Not authorized: nothing was
 * written, and the payment takes the step-by-step path (gate, approval, rail, reserve).
 */
export type AuthorizeOutcome = { authorized: false } | { authorized: true; rail: RailName; sandbox: boolean; decision: GateDecision };

export type ReserveOutcome = { status: 'reserved' } | { status: 'needs_approval' } | { status: IntentStatus; ended: true };

export interface PaymentSteps {
  /** Emits the intent's event (once per intent and type) and starts its webhook deliveries. */
  emitEvent(intentId: string, type: WebhookEventType): Promise<void>;
  /**
   * The front of a payment in one transaction, for the payment that needs nothing else: the gate
   * (under the wallet lock, so its usage is the authoritative one), the rail's quote, the hold,
   * the transitions created -> approved -> processing with their audit entries, and the
   * intent.created and intent.approved events. A payment that needs approval, is denied, cannot
   * be carried or is not covered is left untouched (`authorized: false`). Run again after it
   * committed, it answers authorized again and changes nothing.
   */
  authorize(intentId: string): Promise<AuthorizeOutcome>;
  loadGate(intentId: string): Promise<GateInput>;
  /** Records the decision and moves the intent (created or pending_approval) to approved, pending_approval or blocked. */
  applyGate(intentId: string, decision: GateDecision, revision: string): Promise<GateOutcome>;
  /** pending_approval with an Approval row expiring at `expiresAt` (ISO). */
  openApproval(intentId: string, expiresAt: string): Promise<ApprovalOutcome>;
  /** The owner's decision as the database holds it; `timedOut` expires a still-pending approval. */
  resolveApproval(intentId: string, timedOut: boolean): Promise<ApprovalOutcome>;
  /** Checks the intent's rail can carry it (quote); RailUnavailable fails the intent. */
  selectRail(intentId: string): Promise<{ rail: RailName; sandbox: boolean }>;
  /** Under the agent wallet's lock: the authoritative limits check, then agent -> hold. */
  reserveFunds(intentId: string): Promise<ReserveOutcome>;
  executeOnRail(intentId: string): Promise<RailStepResult>;
  checkRail(intentId: string): Promise<RailStepResult>;
  /**
   * After execute failed for good: makes sure nothing the rail started can still move money
   * (an x402 authorisation is cancelled on chain), then answers the rail's state. Null when
   * the rail never recorded an operation, and now never will.
   */
  abandonRail(intentId: string): Promise<RailStepResult | null>;
  /** hold -> payee; settles the intent. Exactly once per intent. */
  capturePayment(intentId: string): Promise<void>;
  /**
   * The end of a payment in one transaction: capturePayment, the settlement.completed event and
   * the workflow's audit entry with `steps`, so a settled intent never lacks its event or its
   * audit entry. Each part happens once per intent however often it runs.
   */
  settle(intentId: string, steps: { step: PaymentStep; status: string; at: string; detail?: string }[]): Promise<void>;
  /** hold -> agent when reserved (compensation), then fails the intent with the reason. */
  releaseFunds(intentId: string, failure: { code: string; message: string }): Promise<void>;
  /** Fails an intent that never reserved funds (rail unavailable, agent suspended). */
  failIntent(intentId: string, failure: { code: string; message: string }): Promise<IntentStatus>;
  /** The workflow's last step: its whole step history in the audit log. */
  recordWorkflowAudit(intentId: string, steps: { step: PaymentStep; status: string; at: string; detail?: string }[]): Promise<void>;
}
