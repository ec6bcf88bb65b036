/**
 * Budget alerts, recorded inside the transaction that captures a payment (settle-payment.ts):
 * once the capture counts, the agent's spend is compared with its spending rules' daily limit
 * (the rolling 24 hours the gate counts, alerting once per UTC day) and with the monthly budget
 * of every enforced policy that applies to the payment (the agent's spend in the UTC month, as
 * the policy engine counts it). Each threshold reached (BUDGET_ALERT_THRESHOLDS: 80 and 100
 * percent) inserts one BudgetAlert per agent, scope, threshold and period; the unique index turns
 * a second crossing, a retry or a racing capture into nothing. A new alert's body is the
 * budget.threshold webhook event (core's budgetThresholdEventView; its id is the alert's),
 * delivered to the owner's enabled endpoints subscribed to it; the caller starts those
 * deliveries after commit.
 *
 * The capture's own statement records them (purser_record_budget_alerts, migration
 * *_settle_in_one_step), so they cost the capture no round trip; this module hands it what
 * TypeScript decides: the windows the spend is counted over, in the owner's time zone as the gate
 * counts them.
 *
 * Shadow policies never alert: they are reported per payment, not enforced. A stored policy
 * that no longer parses (its rules not an object, or a monthlyBudget that is no amount) skips
 * the monthly checks rather than failing the capture: the money has moved on the rail by now,
 * and the gate already refuses new payments over such a policy.
 */
import { OWNER_TIME_ZONE, usageWindows } from '@purser/core';

/** Where the daily and monthly spend a capture compares with its limits are counted from. */
export function budgetWindows(at: Date): { windowStart: Date; monthStart: Date } {
  const { dailyWindowStart, monthStart } = usageWindows(at, OWNER_TIME_ZONE);
  return { windowStart: dailyWindowStart, monthStart };
}
