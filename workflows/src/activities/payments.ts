// The payment workflow's activities. The steps themselves (database, ledger, rails, webhooks)
// are the server's services, handed in as `PaymentSteps` (core's contract); this module turns
// their typed business failures into non-retryable ApplicationFailures the workflow can branch
// on, and leaves every other error retryable (a lost connection, a deadlock, a restarted database).
import { ApplicationFailure } from '@temporalio/common';
import { PAYMENT_FAILURES } from '../constants';
import { isAppError, type ErrorCode, type PaymentActivities } from '@purser/core';

export function createPaymentActivities(steps: PaymentActivities): PaymentActivities {
  const activities = {} as PaymentActivities;
  for (const name of Object.keys(steps) as (keyof PaymentActivities)[]) {
    const step = steps[name] as (...args: unknown[]) => Promise<unknown>;
    (activities as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      try {
        return await step(...args);
      } catch (error) {
        throw toFailure(error);
      }
    };
  }
  return activities;
}

/** Business failures are final; anything else is retried by the activity's retry policy. */
function toFailure(error: unknown): unknown {
  if (!isAppError(error)) return error;
  const type = (PAYMENT_FAILURES as Partial<Record<ErrorCode, string>>)[error.code];
  if (!type) return error;
  return ApplicationFailure.create({ message: error.message, type, nonRetryable: true, details: [{ code: error.code, message: error.message }] });
}
