// What the payment workflow's parts share: its progress (the `progress` query, and the audit
// entry's steps), the signals it waits on, and the business failures its steps raise.
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import type { PaymentStep, StepStatus } from '@purser/core';
import type { PaymentProgress } from './payment-messages';

export { firedSummary, railDetail } from './payment-records';

/** Set by the workflow's signal handlers; a part that waits clears what it has handled. */
export interface PaymentSignals {
  decided: boolean;
  cancelled: boolean;
  policyChanged: boolean;
  railUpdated: boolean;
}

export class ProgressLog {
  constructor(readonly progress: PaymentProgress) {}

  /** A step starts: it is the current one, running. */
  begin(step: PaymentStep): void {
    this.progress.currentStep = step;
    this.progress.steps.push({ step, status: 'running', at: new Date().toISOString() });
  }

  /** The current step ends. */
  end(status: StepStatus, detail?: string): void {
    const current = this.progress.steps[this.progress.steps.length - 1];
    if (current) Object.assign(current, { status, at: new Date().toISOString() }, detail === undefined ? {} : { detail });
  }

  /** A step that is over as it is recorded (done in a step that did several). */
  done(step: PaymentStep, status: StepStatus, detail?: string): void {
    this.progress.steps.push({ step, status, at: new Date().toISOString(), ...(detail === undefined ? {} : { detail }) });
  }

  skip(step: PaymentStep, detail: string): void {
    this.done(step, 'skipped', detail);
  }
}

/** The typed business failure behind an activity failure, or null for anything else. */
export function businessFailure(error: unknown): { type: string; code: string; message: string } | null {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (!(cause instanceof ApplicationFailure) || !cause.nonRetryable || !cause.type) return null;
  const detail = (cause.details?.[0] ?? {}) as { code?: string; message?: string };
  return { type: cause.type, code: detail.code ?? cause.type, message: detail.message ?? cause.message };
}
