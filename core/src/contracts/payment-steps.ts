/**
 * The payment workflow's step contract: what each step of the engine takes and answers. The
 * workflow (@purser/workflows) calls these steps; the server implements them (its
 * services/payments) and hands them to the worker. Both depend on this contract, neither on
 * the other.
 *
 * Everything that crosses the activity boundary is JSON (Temporal's payload converter carries no
 * bigint): what a step answers holds no amount. Inside the server amounts are bigints.
 */
import type { PolicyInput } from '../policy/evaluate-policy';
import type { IntentStatus, PaymentStep, RailName, StepStatus, WebhookEventType } from './intents';

/** The audit actor of everything the payment workflow records. */
export const PAYMENT_WORKFLOW_ACTOR = 'system:payment-workflow';

/**
 * What the policy gate needs: the policy engine's input without its clock (amounts in atomic
 * units, policies parsed), and the intent's status. It never leaves the server: the front of a
 * payment (authorizePayment) loads and evaluates it in one transaction.
 */
export interface GateInput extends Omit<PolicyInput, 'at'> {
  status: IntentStatus;
}

/** A policy evaluation as the intent records it (policyDecision), and as a step answers it. */
export interface GateDecision {
  decision: 'allow' | 'require_approval' | 'deny';
  fired: { rule: string; outcome: 'deny' | 'require_approval'; code: string; message: string; policyId?: string; shadow: boolean }[];
  shadow: { policyId: string; name: string; version: number; decision: 'allow' | 'require_approval' | 'deny' }[];
  timeBoxMs: number | null;
  evaluatedAt: string;
}

export type ApprovalOutcome = 'pending' | 'approved' | 'rejected' | 'expired' | 'cancelled' | 'blocked';

export interface RailStepResult {
  rail: RailName;
  sandbox: boolean;
  reference: string;
  status: 'settled' | 'pending';
  /** Pending operations: when to ask again (ISO time), null to use the default poll interval. */
  checkAfter: string | null;
}

/** Where the front of a payment refused it, for the workflow's progress. */
export type RefusedAt = 'policy_gate' | 'rail_selection' | 'reserve';

/**
 * authorizePayment's answer: what the one transaction at the front of a payment recorded.
 * - authorized: the gate allowed it (or the owner approved it), its rail quoted it and its funds
 *   are held; the intent is processing.
 * - needs_approval: the intent is pending_approval and its approval is open until `expiresAt`.
 * - refused: the intent is blocked (a policy denied it) or failed (no rail, a suspended agent,
 *   too little money), with the reason it records.
 * - ended: the intent had already left the front (cancelled, rejected, expired...): nothing written.
 */
export type AuthorizeOutcome =
  | { outcome: 'authorized'; decision: GateDecision; rail: RailName; sandbox: boolean }
  | { outcome: 'needs_approval'; decision: GateDecision; expiresAt: string }
  | {
      outcome: 'refused';
      status: 'blocked' | 'failed';
      at: RefusedAt;
      decision: GateDecision;
      rail: { rail: RailName; sandbox: boolean } | null;
      failure: { code: string; message: string };
    }
  | { outcome: 'ended'; status: IntentStatus };

export interface PaymentSteps {
  /**
   * The front of a payment in one transaction, whatever its outcome: the policy and KYA gate
   * (under the agent wallet's lock, so the usage it reads is the authoritative one), the
   * decision recorded on the intent, then, when the payment may go on, the rail's quote and the
   * hold, with every transition's audit entry and the events (intent.created, intent.approved,
   * policy.violation) whose webhook deliveries start after the commit. Called for a new intent,
   * again after the owner approved it (the gate runs again: limits may have moved), and again
   * when a policy changed while it waited. Run again after it committed, it answers the same.
   */
  authorizePayment(intentId: string): Promise<AuthorizeOutcome>;
  /** The owner's decision as the database holds it; `timedOut` expires a still-pending approval. */
  resolveApproval(intentId: string, timedOut: boolean): Promise<ApprovalOutcome>;
  executeOnRail(intentId: string): Promise<RailStepResult>;
  checkRail(intentId: string): Promise<RailStepResult>;
  /**
   * After execute failed for good: makes sure nothing the rail started can still move money
   * (an x402 authorisation is cancelled on chain), then answers the rail's state. Null when
   * the rail never recorded an operation, and now never will.
   */
  abandonRail(intentId: string): Promise<RailStepResult | null>;
  /**
   * The end of a payment in one transaction: capture (hold -> payee), the settlement.completed
   * event and the workflow's audit entry with `steps`, so a settled intent never lacks its event
   * or its audit entry. Each part happens once per intent however often it runs.
   */
  settle(intentId: string, steps: PaymentStepRecord[]): Promise<void>;
  /**
   * A payment authorised, held and signed in the agent's request (its workflow started from the
   * request's outbox row): when its rail operation has settled already (the seller settled it on
   * chain before the workflow started), settle at once, with the workflow's audit entry holding
   * the steps the request took followed by `end`, and answer those steps. Null, and nothing
   * written, when the payment is not there yet (its funds not held, its operation pending): the
   * workflow then goes the usual way, from the front.
   */
  settlePaidInRequest(intentId: string, end: PaymentStepRecord[]): Promise<PaymentStepRecord[] | null>;
  /** hold -> agent when reserved (compensation), then fails the intent with the reason. */
  releaseFunds(intentId: string, failure: { code: string; message: string }): Promise<void>;
  /** Fails an intent that holds no funds (a gate that never settled). */
  failIntent(intentId: string, failure: { code: string; message: string }): Promise<IntentStatus>;
  /** The workflow's last step: its whole step history in the audit log. */
  recordWorkflowAudit(intentId: string, steps: PaymentStepRecord[]): Promise<void>;
}

/** One step of a payment's progress, as the workflow reports and the audit log keeps it. */
export interface PaymentStepRecord {
  step: PaymentStep;
  status: StepStatus;
  at: string;
  detail?: string;
}

// ------------------------------------------------------------ before 'one-front'
// Histories recorded before the workflow's 'one-front' patch took the front of a payment step
// by step. Until none of those runs is open, the workers keep the steps they call. Each is the
// front above (authorizePayment) answered in the shape those runs expect. They go, with the
// workflow's branch that calls them, once the patch is deprecated (workflows/README.md).

/** What loadGate answered: the gate's inputs as JSON (amounts as decimal strings, policies in document form). */
export interface GateInputJson {
  intent: {
    amount: string;
    currency: 'USDC' | 'USDT';
    category: string | null;
    merchant: string | null;
    toAddress: string | null;
    merchantVerified: boolean;
    country: string | null;
    kyaTier: string | null;
  };
  agent: { kyaTier: string; spendingRules: { maxTransactionAmount: string; maxDailyLimit: string; approvalThreshold: string | null } };
  policies: { id: string; name: string; version: number; rules: unknown; shadow: boolean }[];
  usage: { spentInWindow: string; spentThisMonth: string };
  timeZone: string;
  revision: string;
  status: IntentStatus;
}

export type GateOutcome = { status: IntentStatus } | { stale: true };
export type AuthorizeAnswerBeforeOneFront = { authorized: false } | { authorized: true; rail: RailName; sandbox: boolean; decision: GateDecision };
export type ReserveOutcome = { status: 'reserved' } | { status: 'needs_approval' } | { status: IntentStatus; ended: true };

export interface PaymentStepsBeforeOneFront {
  emitEvent(intentId: string, type: WebhookEventType): Promise<void>;
  authorize(intentId: string): Promise<AuthorizeAnswerBeforeOneFront>;
  loadGate(intentId: string): Promise<GateInputJson>;
  applyGate(intentId: string, decision: GateDecision, revision: string): Promise<GateOutcome>;
  openApproval(intentId: string, expiresAt: string): Promise<ApprovalOutcome>;
  selectRail(intentId: string): Promise<{ rail: RailName; sandbox: boolean }>;
  reserveFunds(intentId: string): Promise<ReserveOutcome>;
}

/** Every step a worker offers: today's, and those the runs recorded before 'one-front' still call. */
export type PaymentActivities = PaymentSteps & PaymentStepsBeforeOneFront;
