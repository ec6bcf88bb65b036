// The spending rules form of the agent page: its text fields <-> agents.updateSpendingRules'
// input. Checked with the server's own schema (core's updateSpendingRulesInput), so the form
// shows the very message the server would answer, under the field it is about.
import { updateSpendingRulesInput, type UpdateSpendingRulesBody } from '@purser/core';

export interface SpendingRulesForm {
  maxTransactionAmount: string;
  maxDailyLimit: string;
  /** Empty: no payment waits for approval. */
  approvalThreshold: string;
}

export type SpendingRulesField = keyof SpendingRulesForm;

export const SPENDING_RULES_FIELDS: readonly SpendingRulesField[] = ['maxTransactionAmount', 'maxDailyLimit', 'approvalThreshold'];

const INPUT_KEYS: Record<SpendingRulesField, keyof UpdateSpendingRulesBody> = {
  maxTransactionAmount: 'max_transaction_amount',
  maxDailyLimit: 'max_daily_limit',
  approvalThreshold: 'approval_threshold',
};

const REQUIRED_MESSAGES: Partial<Record<SpendingRulesField, string>> = {
  maxTransactionAmount: 'Please enter a max transaction amount',
  maxDailyLimit: 'Please enter a daily limit',
};

/** The rules as the server reports them (agents.get), exact decimal strings. */
export interface SpendingRulesValues {
  max_transaction_amount_exact: string;
  max_daily_limit_exact: string;
  approval_threshold_exact: string | null;
}

export function spendingRulesForm(rules: SpendingRulesValues | null): SpendingRulesForm {
  return {
    maxTransactionAmount: rules?.max_transaction_amount_exact ?? '',
    maxDailyLimit: rules?.max_daily_limit_exact ?? '',
    approvalThreshold: rules?.approval_threshold_exact ?? '',
  };
}

export type SpendingRulesResult =
  | { ok: true; input: UpdateSpendingRulesBody }
  | { ok: false; errors: Partial<Record<SpendingRulesField, string>> };

/** The mutation's input, or the first message for each field that is wrong. */
export function spendingRulesInput(agentId: string, form: SpendingRulesForm): SpendingRulesResult {
  const errors: Partial<Record<SpendingRulesField, string>> = {};
  for (const field of SPENDING_RULES_FIELDS) {
    const message = REQUIRED_MESSAGES[field];
    if (message && form[field].trim() === '') errors[field] = message;
  }
  const input: UpdateSpendingRulesBody = {
    agent_id: agentId,
    max_transaction_amount: form.maxTransactionAmount.trim(),
    max_daily_limit: form.maxDailyLimit.trim(),
    approval_threshold: form.approvalThreshold.trim() === '' ? null : form.approvalThreshold.trim(),
  };
  const parsed = updateSpendingRulesInput.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = SPENDING_RULES_FIELDS.find((name) => INPUT_KEYS[name] === issue.path[0]);
      if (field && !errors[field]) errors[field] = issue.message;
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, input };
}

/** The field a server message names ('Max daily limit must ...'), for messages the form did not foresee. */
export function fieldOfMessage(message: string): SpendingRulesField | null {
  if (/^Max transaction amount/i.test(message)) return 'maxTransactionAmount';
  if (/^Max daily limit/i.test(message)) return 'maxDailyLimit';
  if (/^Approval threshold/i.test(message)) return 'approvalThreshold';
  return null;
}

/**
 * A threshold at or above the max per transaction never fires: no single payment can exceed
 * it. Said beside the field, so an owner does not believe approvals are on.
 */
export function approvalThresholdHint(form: SpendingRulesForm): string | null {
  const threshold = Number(form.approvalThreshold);
  const max = Number(form.maxTransactionAmount);
  if (form.approvalThreshold.trim() === '' || form.maxTransactionAmount.trim() === '' || !Number.isFinite(threshold) || !Number.isFinite(max)) return null;
  return threshold >= max ? 'At or above the max per transaction: no payment will wait for approval.' : null;
}
