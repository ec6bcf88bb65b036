// What the payment workflow takes, answers and listens to: its input, its progress query and
// its signals. The workflow, the server's client (start, signal, query) and tests share these,
// without the workflow's code.
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { IntentStatus, PaymentStep, PaymentStepRecord, RailName } from '@purser/core';

export type { PaymentStepRecord } from '@purser/core';

export interface PaymentWorkflowInput {
  intentId: string;
  /** Retries of the rail's execute step after the first try (the intent's maxRetries). */
  maxRetries: number;
  /**
   * Set when a run continued as new while it followed its rail (a channel open for days, a slow
   * settlement): the rail it executed on and its progress so far. The new run goes straight back
   * to following that rail; the front and execute are behind it.
   */
  following?: { rail: RailName; progress: PaymentProgress };
  /**
   * Set when the payment was authorised, held and signed in the agent's request, and its
   * workflow started from the request's outbox row (services/intents/workflow-outbox.ts): when
   * the seller has settled it already, the workflow ends it in one step.
   */
  paidInRequest?: boolean;
}

export interface PaymentProgress {
  intentId: string;
  status: IntentStatus;
  currentStep: PaymentStep | null;
  steps: PaymentStepRecord[];
}

/** The owner decided (approve or reject); the decision itself is read from the database. */
export const approvalDecidedSignal = defineSignal('approvalDecided');
export const cancelSignal = defineSignal('cancel');
/** A policy was attached to the intent: the gate runs again. */
export const policyChangedSignal = defineSignal('policyChanged');
/** Something happened on the rail (an x402 seller redeemed the payment): look again now. */
export const railUpdatedSignal = defineSignal('railUpdated');
export const progressQuery = defineQuery<PaymentProgress>('progress');
