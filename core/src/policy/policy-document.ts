/**
 * The stored and displayed form of a policy (the Policy.rules column, the API's responses):
 * the inverse of policyRulesSchema. Amounts are full-precision decimal dollar strings ("0.5",
 * never a float), the daily limit goes by its own name (never the dailyCap alias), a time box
 * by its text, and rules appear in a fixed order. policyRulesSchema.parse(document) gives back
 * the rules the document was made from, so a stored policy reads back exactly as it was written.
 */
import { z } from 'zod';
import { KYA_TIER_NAMES } from '../contracts/agents';
import { PAYMENT_PROTOCOLS } from '../contracts/payment-protocols';
import { toDecimalString } from '../money';
import type { PolicyRules } from './policy-rules';
import { DAYS_OF_WEEK } from './zoned-time';

const dollars = z.string().describe('Dollars as a decimal string, up to 6 decimals');
const names = z.array(z.string());

/** The zod shape of a policy document as stored and answered (a document policyRulesSchema accepts). */
export const policyRulesDocumentView = z.object({
  maxPerTransaction: dollars.optional(),
  dailyLimit: dollars.optional(),
  monthlyBudget: dollars.optional(),
  approvalThreshold: dollars.optional(),
  allowedCategories: names.optional(),
  blockedCategories: names.optional(),
  allowedMerchants: names.optional(),
  blockedMerchants: names.optional(),
  allowedCountries: names.optional(),
  blockedCountries: names.optional(),
  timeWindows: z.array(z.object({ days: z.array(z.enum(DAYS_OF_WEEK)), start: z.string(), end: z.string() })).optional(),
  kyaEscalation: z.enum(KYA_TIER_NAMES).optional(),
  timeBox: z.string().optional(),
  preferredProtocol: z.enum(PAYMENT_PROTOCOLS).optional(),
});
export type StoredPolicyRules = z.infer<typeof policyRulesDocumentView>;

export function policyRulesToDocument(rules: PolicyRules): StoredPolicyRules {
  const document: StoredPolicyRules = {};
  if (rules.maxPerTransaction !== undefined) document.maxPerTransaction = toDecimalString(rules.maxPerTransaction);
  if (rules.dailyLimit !== undefined) document.dailyLimit = toDecimalString(rules.dailyLimit);
  if (rules.monthlyBudget !== undefined) document.monthlyBudget = toDecimalString(rules.monthlyBudget);
  if (rules.approvalThreshold !== undefined) document.approvalThreshold = toDecimalString(rules.approvalThreshold);
  if (rules.allowedCategories !== undefined) document.allowedCategories = [...rules.allowedCategories];
  if (rules.blockedCategories !== undefined) document.blockedCategories = [...rules.blockedCategories];
  if (rules.allowedMerchants !== undefined) document.allowedMerchants = [...rules.allowedMerchants];
  if (rules.blockedMerchants !== undefined) document.blockedMerchants = [...rules.blockedMerchants];
  if (rules.allowedCountries !== undefined) document.allowedCountries = [...rules.allowedCountries];
  if (rules.blockedCountries !== undefined) document.blockedCountries = [...rules.blockedCountries];
  if (rules.timeWindows !== undefined) {
    document.timeWindows = rules.timeWindows.map((window) => ({ days: [...window.days], start: window.start, end: window.end }));
  }
  if (rules.kyaEscalation !== undefined) document.kyaEscalation = rules.kyaEscalation;
  if (rules.timeBox !== undefined) document.timeBox = rules.timeBox.text;
  if (rules.preferredProtocol !== undefined) document.preferredProtocol = rules.preferredProtocol;
  return document;
}
