/**
 * The policy document an owner attaches to agents or intents (Policy.rules), as zod parses
 * it: dollars in, atomic units out; lists trimmed; country codes upper-cased; days and tiers
 * lower-cased. Unknown keys are refused, because a misspelt rule that is silently ignored is a
 * spend control that silently does not exist.
 */
import { z } from 'zod';
import { spendingLimitSchema } from '../contracts/agents';
import { PAYMENT_PROTOCOLS, type PaymentProtocol } from '../contracts/payment-protocols';
import type { KyaTier } from '../kya';
import { COUNTRY_CODE_HINTS, COUNTRY_CODES } from './country-codes';
import { DAYS_OF_WEEK, type DayOfWeek } from './zoned-time';

const MAX_LIST_LENGTH = 1000;
const MAX_NAME_LENGTH = 200;
const MAX_TIME_WINDOWS = 50;
const MINUTE_MS = 60_000;
export const MIN_TIME_BOX_MS = MINUTE_MS;
/** An approval left waiting longer than a month is a forgotten approval. */
export const MAX_TIME_BOX_MS = 30 * 24 * 60 * MINUTE_MS;

/** Tiers a policy can escalate to; escalating to the lowest tier would never apply. */
export const KYA_ESCALATION_TIERS = ['basic', 'moderate', 'high'] as const satisfies readonly KyaTier[];

const FULL_DAY_NAMES: Readonly<Record<DayOfWeek, string>> = {
  mon: 'monday',
  tue: 'tuesday',
  wed: 'wednesday',
  thu: 'thursday',
  fri: 'friday',
  sat: 'saturday',
  sun: 'sunday',
};

function nameList(field: string, noun: string) {
  return z
    .array(
      z
        .string({ error: `${field} must list ${noun}s as text` })
        .trim()
        .min(1, { error: `${field} must not contain an empty ${noun}` })
        .max(MAX_NAME_LENGTH, { error: `${field} entries must be at most ${MAX_NAME_LENGTH} characters` }),
      { error: `${field} must be a list of ${noun}s` },
    )
    .min(1, { error: `${field} must list at least one ${noun}; leave it out to apply no such rule` })
    .max(MAX_LIST_LENGTH, { error: `${field} must list at most ${MAX_LIST_LENGTH} ${noun}s` });
}

/** An EVM address: a merchant entry naming where the money goes rather than who says they are paid. */
export const EVM_ADDRESS_PATTERN = /^0x[0-9a-f]{40}$/i;

/**
 * Merchant entries are hosts or names, or EVM addresses (`0x` and 40 hex digits, any case).
 * A dotless entry starting with 0x is meant as an address, so a typo in one is refused rather
 * than kept as a name that never matches a payee.
 */
function merchantList(field: string) {
  return nameList(field, 'merchant').superRefine((entries, ctx) => {
    for (const entry of entries) {
      if (/^0x/i.test(entry) && !entry.includes('.') && !EVM_ADDRESS_PATTERN.test(entry)) {
        ctx.addIssue({ code: 'custom', message: `${field}: "${entry}" is not an EVM address (0x followed by 40 hex digits)` });
      }
    }
  });
}

function countryList(field: string) {
  const code = z.string({ error: `${field} must list ISO 3166-1 alpha-2 country codes` }).transform((value, ctx) => {
    const upper = value.trim().toUpperCase();
    if (!/^[A-Z]{2}$/.test(upper)) {
      ctx.addIssue({ code: 'custom', message: `${field}: "${value}" is not an ISO 3166-1 alpha-2 country code (two letters, such as US or DE)` });
      return z.NEVER;
    }
    if (!COUNTRY_CODES.has(upper)) {
      const hint = COUNTRY_CODE_HINTS[upper];
      ctx.addIssue({
        code: 'custom',
        message: `${field}: "${value}" is not an assigned ISO 3166-1 alpha-2 country code${hint ? ` (did you mean ${hint}?)` : ''}`,
      });
      return z.NEVER;
    }
    return upper;
  });
  return z
    .array(code, { error: `${field} must be a list of country codes` })
    .min(1, { error: `${field} must list at least one country; leave it out to apply no such rule` })
    .max(MAX_LIST_LENGTH, { error: `${field} must list at most ${MAX_LIST_LENGTH} countries` });
}

const DAY_MESSAGE = `Time window days must be days of the week: ${DAYS_OF_WEEK.join(', ')}`;

const dayOfWeek = z.string({ error: DAY_MESSAGE }).transform((value, ctx) => {
  const key = value.trim().toLowerCase();
  const day = DAYS_OF_WEEK.find((name) => key === name || key === FULL_DAY_NAMES[name]);
  if (!day) {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not a day of the week: use ${DAYS_OF_WEEK.join(', ')}` });
    return z.NEVER;
  }
  return day;
});

const START_MESSAGE = 'Time window start must be a time HH:MM from 00:00 to 23:59';
const END_MESSAGE = 'Time window end must be a time HH:MM from 00:00 to 24:00';

/**
 * Days of the week (all when left out) with a local start and end, end excluded. A window
 * whose end is earlier than its start crosses midnight: `{ days: ['fri'], start: '22:00',
 * end: '02:00' }` runs from Friday 22:00 to Saturday 02:00. The days are the days it starts on.
 */
const timeWindowSchema = z
  .strictObject(
    {
      days: z
        .array(dayOfWeek, { error: DAY_MESSAGE })
        .min(1, { error: 'Time window days must name at least one day; leave days out for every day' })
        .optional(),
      start: z.string({ error: START_MESSAGE }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: START_MESSAGE }),
      end: z.string({ error: END_MESSAGE }).regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, { error: END_MESSAGE }),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `Unknown time window field ${issue.keys.join(', ')}: a window has days, start and end`
          : 'A time window must be an object with days, start and end',
    },
  )
  .refine((window) => window.start !== window.end, {
    error: 'Time window start and end must differ; for a whole day use 00:00 to 24:00',
  })
  .transform((window) => ({
    days: DAYS_OF_WEEK.filter((day) => (window.days ?? DAYS_OF_WEEK).includes(day)),
    start: window.start,
    end: window.end,
  }));
export type TimeWindow = z.output<typeof timeWindowSchema>;

const TIME_BOX_MESSAGE = 'timeBox must be a duration such as 30m, 24h, 7d or 2w';
const TIME_BOX_UNITS = { m: MINUTE_MS, h: 60 * MINUTE_MS, d: 24 * 60 * MINUTE_MS, w: 7 * 24 * 60 * MINUTE_MS } as const;

/** Milliseconds in a time box such as `24h`; throws a RangeError with the schema's message. */
export function parseTimeBox(text: string): number {
  const match = /^(\d{1,6})\s*([mhdw])$/.exec(text.trim().toLowerCase());
  if (!match) throw new RangeError(TIME_BOX_MESSAGE);
  const milliseconds = Number(match[1]) * TIME_BOX_UNITS[match[2] as keyof typeof TIME_BOX_UNITS];
  if (milliseconds < MIN_TIME_BOX_MS) throw new RangeError('timeBox must be at least 1 minute');
  if (milliseconds > MAX_TIME_BOX_MS) throw new RangeError('timeBox must be at most 30 days');
  return milliseconds;
}

const timeBoxSchema = z.string({ error: TIME_BOX_MESSAGE }).transform((text, ctx) => {
  try {
    return { text: text.trim().toLowerCase(), milliseconds: parseTimeBox(text) };
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: error instanceof RangeError ? error.message : TIME_BOX_MESSAGE });
    return z.NEVER;
  }
});

const ESCALATION_MESSAGE = `kyaEscalation must be one of ${KYA_ESCALATION_TIERS.join(', ')}`;

const kyaEscalationSchema = z.string({ error: ESCALATION_MESSAGE }).transform((value, ctx) => {
  const tier = KYA_ESCALATION_TIERS.find((name) => name === value.trim().toLowerCase());
  if (!tier) {
    const lowest = value.trim().toLowerCase() === 'pseudonymous';
    ctx.addIssue({ code: 'custom', message: lowest ? `${ESCALATION_MESSAGE} (escalating to pseudonymous would never apply)` : ESCALATION_MESSAGE });
    return z.NEVER;
  }
  return tier as KyaTier;
});

const RULE_NAMES = [
  'maxPerTransaction',
  'dailyLimit',
  'dailyCap',
  'monthlyBudget',
  'approvalThreshold',
  'allowedCategories',
  'blockedCategories',
  'allowedMerchants',
  'blockedMerchants',
  'allowedCountries',
  'blockedCountries',
  'timeWindows',
  'kyaEscalation',
  'timeBox',
  'preferredProtocol',
] as const;

/**
 * A policy document. Amounts are dollars (numbers or decimal strings, at most 6 decimals,
 * zero allowed: a daily limit of 0 freezes spending). `dailyCap` is the spec's name for
 * `dailyLimit` and comes out as `dailyLimit`. See README.md beside this file for each rule.
 */
export const policyRulesSchema = z
  .strictObject(
    {
      maxPerTransaction: spendingLimitSchema('maxPerTransaction').optional(),
      dailyLimit: spendingLimitSchema('dailyLimit').optional(),
      dailyCap: spendingLimitSchema('dailyCap').optional(),
      monthlyBudget: spendingLimitSchema('monthlyBudget').optional(),
      approvalThreshold: spendingLimitSchema('approvalThreshold').optional(),
      allowedCategories: nameList('allowedCategories', 'category').optional(),
      blockedCategories: nameList('blockedCategories', 'category').optional(),
      allowedMerchants: merchantList('allowedMerchants').optional(),
      blockedMerchants: merchantList('blockedMerchants').optional(),
      allowedCountries: countryList('allowedCountries').optional(),
      blockedCountries: countryList('blockedCountries').optional(),
      timeWindows: z
        .array(timeWindowSchema, { error: 'timeWindows must be a list of time windows' })
        .min(1, { error: 'timeWindows must list at least one window; leave it out to allow any time' })
        .max(MAX_TIME_WINDOWS, { error: `timeWindows must list at most ${MAX_TIME_WINDOWS} windows` })
        .optional(),
      kyaEscalation: kyaEscalationSchema.optional(),
      timeBox: timeBoxSchema.optional(),
      /** Which protocol an agent pays a seller that offers both in (an x402 offer and an MPP challenge); left out: the cheaper, then x402. */
      preferredProtocol: z.enum(PAYMENT_PROTOCOLS, { error: `preferredProtocol must be one of ${PAYMENT_PROTOCOLS.join(', ')}` }).optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `Unknown policy rule ${issue.keys.join(', ')}; known rules: ${RULE_NAMES.join(', ')}`
          : 'A policy must be an object of rules',
    },
  )
  .refine((rules) => rules.dailyLimit === undefined || rules.dailyCap === undefined, {
    error: 'Give dailyLimit or dailyCap (its alias), not both',
    path: ['dailyCap'],
  })
  .refine((rules) => Object.values(rules).some((value) => value !== undefined), {
    error: `A policy must set at least one rule: ${RULE_NAMES.join(', ')}`,
    // A document of misspelt rules is empty too; its unknown-key message says more.
    when: (payload) => payload.issues.length === 0,
  })
  .transform(({ dailyCap, dailyLimit, ...rules }) => ({ ...rules, dailyLimit: dailyLimit ?? dailyCap }));

/** What an owner writes: dollars, any case. */
export type PolicyRulesDocument = z.input<typeof policyRulesSchema>;
/** After parsing: atomic units, normalised names. */
export type PolicyRules = z.output<typeof policyRulesSchema>;

/**
 * The protocol the owner's enforced policies prefer for a seller offering both; the most specific
 * one wins (the documents come owner-wide first, then the agent's, then the intent's). Null: none.
 */
export function preferredProtocolOf(policies: readonly { rules: PolicyRules; shadow: boolean }[]): PaymentProtocol | null {
  return policies.filter((policy) => !policy.shadow && policy.rules.preferredProtocol !== undefined).at(-1)?.rules.preferredProtocol ?? null;
}
