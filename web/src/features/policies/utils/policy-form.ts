// The policy form (create and edit) <-> the policy document. Every rule the engine has is a
// field here; the document is checked with the server's own schema (core's policyRulesSchema
// and createPolicyInput), so each field shows the message the server would answer. Messages
// the server sends back anyway (a race, a rule the form did not foresee) are placed by the
// rule they name.
import {
  createPolicyInput,
  DAYS_OF_WEEK,
  KYA_ESCALATION_TIERS,
  PAYMENT_PROTOCOLS,
  policyRulesSchema,
  type CreatePolicyBody,
  type DayOfWeek,
  type PaymentProtocol,
  type PolicyRulesDocument,
  type StoredPolicyRules,
} from '@purser/core';

export type KyaEscalationChoice = '' | (typeof KYA_ESCALATION_TIERS)[number];
/** '' is no preference: a seller offering both protocols is paid in the cheaper, then x402. */
export type PreferredProtocolChoice = '' | PaymentProtocol;
export { DAYS_OF_WEEK, KYA_ESCALATION_TIERS, PAYMENT_PROTOCOLS, type DayOfWeek };

export interface TimeWindowForm {
  /** Stable React key: windows are added and removed in the middle. */
  key: number;
  days: DayOfWeek[];
  start: string;
  end: string;
}

export const AMOUNT_RULES = ['maxPerTransaction', 'dailyLimit', 'monthlyBudget', 'approvalThreshold'] as const;
export const LIST_RULES = ['allowedCategories', 'blockedCategories', 'allowedMerchants', 'blockedMerchants', 'allowedCountries', 'blockedCountries'] as const;
export type AmountRule = (typeof AMOUNT_RULES)[number];
export type ListRule = (typeof LIST_RULES)[number];

export type PolicyForm = {
  name: string;
  /** '' applies the policy to every agent of the owner. */
  agentId: string;
  shadow: boolean;
  enabled: boolean;
  timeWindows: TimeWindowForm[];
  kyaEscalation: KyaEscalationChoice;
  timeBox: string;
  preferredProtocol: PreferredProtocolChoice;
} & Record<AmountRule, string> &
  Record<ListRule, string>;

/** Where a message goes: a field, one time window (`timeWindows.<index>`), or the form as a whole. */
export type PolicyFormErrorKey =
  | 'name'
  | 'agentId'
  | AmountRule
  | ListRule
  | 'timeWindows'
  | `timeWindows.${number}`
  | 'kyaEscalation'
  | 'timeBox'
  | 'preferredProtocol'
  | 'form';
export type PolicyFormErrors = Partial<Record<PolicyFormErrorKey, string>>;

export const RULE_KEYS = [...AMOUNT_RULES, ...LIST_RULES, 'timeWindows', 'kyaEscalation', 'timeBox', 'preferredProtocol'] as const;

let nextWindowKey = 1;

export function newTimeWindow(): TimeWindowForm {
  return { key: nextWindowKey++, days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '17:00' };
}

export function emptyPolicyForm(): PolicyForm {
  return {
    name: '',
    agentId: '',
    shadow: false,
    enabled: true,
    maxPerTransaction: '',
    dailyLimit: '',
    monthlyBudget: '',
    approvalThreshold: '',
    allowedCategories: '',
    blockedCategories: '',
    allowedMerchants: '',
    blockedMerchants: '',
    allowedCountries: '',
    blockedCountries: '',
    timeWindows: [],
    kyaEscalation: '',
    timeBox: '',
    preferredProtocol: '',
  };
}

/** Merchants read best one a line (addresses are long); the other lists as a comma list. */
function joinList(rule: ListRule, entries: readonly string[] | undefined): string {
  return entries?.join(rule.endsWith('Merchants') ? '\n' : ', ') ?? '';
}

/** Entries separated by commas or new lines, trimmed, empty ones dropped. */
export function splitList(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** The fields of a stored policy (policies.list) the form starts from when editing. */
export interface EditablePolicy {
  name: string;
  agentId: string | null;
  shadow: boolean;
  enabled: boolean;
  rules: StoredPolicyRules;
}

export function policyForm(policy: EditablePolicy): PolicyForm {
  const { rules } = policy;
  const form = emptyPolicyForm();
  form.name = policy.name;
  form.agentId = policy.agentId ?? '';
  form.shadow = policy.shadow;
  form.enabled = policy.enabled;
  for (const rule of AMOUNT_RULES) form[rule] = rules[rule] ?? '';
  for (const rule of LIST_RULES) form[rule] = joinList(rule, rules[rule]);
  form.timeWindows = (rules.timeWindows ?? []).map((window) => ({ key: nextWindowKey++, days: [...window.days], start: window.start, end: window.end }));
  form.kyaEscalation = rules.kyaEscalation && rules.kyaEscalation !== 'pseudonymous' ? rules.kyaEscalation : '';
  form.timeBox = rules.timeBox ?? '';
  form.preferredProtocol = rules.preferredProtocol ?? '';
  return form;
}

/** The policy document the form describes: only the rules it sets. */
export function policyRules(form: PolicyForm): PolicyRulesDocument {
  const rules: PolicyRulesDocument = {};
  for (const rule of AMOUNT_RULES) {
    const value = form[rule].trim();
    if (value !== '') rules[rule] = value;
  }
  for (const rule of LIST_RULES) {
    const entries = splitList(form[rule]);
    if (entries.length > 0) rules[rule] = entries;
  }
  if (form.timeWindows.length > 0) {
    rules.timeWindows = form.timeWindows.map((window) => ({
      days: DAYS_OF_WEEK.filter((day) => window.days.includes(day)),
      start: window.start.trim(),
      end: window.end.trim(),
    }));
  }
  if (form.kyaEscalation !== '') rules.kyaEscalation = form.kyaEscalation;
  if (form.timeBox.trim() !== '') rules.timeBox = form.timeBox.trim();
  if (form.preferredProtocol !== '') rules.preferredProtocol = form.preferredProtocol;
  return rules;
}

const NO_DAYS_MESSAGE = 'Choose at least one day for this window';

function errorKey(path: readonly PropertyKey[]): PolicyFormErrorKey {
  const [rule, index] = path;
  if (rule === 'dailyCap') return 'dailyLimit';
  if (rule === 'timeWindows') return typeof index === 'number' ? `timeWindows.${index}` : 'timeWindows';
  return (RULE_KEYS as readonly PropertyKey[]).includes(rule as PropertyKey) ? (rule as PolicyFormErrorKey) : 'form';
}

export type PolicyFormCheck = { ok: true; rules: PolicyRulesDocument } | { ok: false; errors: PolicyFormErrors };

/**
 * The document, or each wrong field's first message. `create` also checks the name (edits keep
 * the name and scope: a policy is versioned by its name).
 */
export function checkPolicyForm(form: PolicyForm, mode: 'create' | 'edit'): PolicyFormCheck {
  const errors: PolicyFormErrors = {};
  const add = (key: PolicyFormErrorKey, message: string) => {
    if (!errors[key]) errors[key] = message;
  };
  if (mode === 'create') {
    const name = createPolicyInput.shape.name.safeParse(form.name);
    if (!name.success) add('name', name.error.issues[0]!.message);
  }
  form.timeWindows.forEach((window, index) => {
    if (window.days.length === 0) add(`timeWindows.${index}`, NO_DAYS_MESSAGE);
  });
  const rules = policyRules(form);
  const parsed = policyRulesSchema.safeParse(rules);
  if (!parsed.success) for (const issue of parsed.error.issues) add(errorKey(issue.path), issue.message);
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, rules };
}

/** policies.create's input. */
export function createPolicyBody(form: PolicyForm, rules: PolicyRulesDocument): CreatePolicyBody {
  return {
    name: form.name.trim(),
    ...(form.agentId ? { agentId: form.agentId } : {}),
    rules,
    shadow: form.shadow,
    enabled: form.enabled,
  };
}

/**
 * Where a server message belongs: the rule it starts with ('allowedCountries: "UK" is not
 * ...', 'maxPerTransaction must ...', 'Time window start must ...'), the name, the scope, or
 * the form as a whole.
 */
export function errorKeyOfMessage(message: string): PolicyFormErrorKey {
  const rule = RULE_KEYS.find((key) => new RegExp(`^${key}\\b`).test(message));
  if (rule) return rule;
  if (/^dailyCap\b/.test(message)) return 'dailyLimit';
  if (/^(Time window|"[^"]*" is not a day of the week)/.test(message)) return 'timeWindows';
  if (/^(Please enter a policy name|Policy name|A policy named)/.test(message)) return 'name';
  if (/^agentId\b|^Agent not found/.test(message)) return 'agentId';
  return 'form';
}
