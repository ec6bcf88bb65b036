// One line per rule of a stored policy, for the policies list: what the policy does, in words.
import type { PaymentProtocol, StoredPolicyRules } from '@purser/core';
import { formatDays, formatMerchant, formatRuleDollars } from './rule-format';

const LIST_PREVIEW = 3;

const PROTOCOL_NAMES: Readonly<Record<PaymentProtocol, string>> = { x402: 'x402', mpp: 'MPP' };

function list(entries: readonly string[], format: (entry: string) => string = (entry) => entry): string {
  const shown = entries.slice(0, LIST_PREVIEW).map(format).join(', ');
  return entries.length > LIST_PREVIEW ? `${shown} +${entries.length - LIST_PREVIEW} more` : shown;
}

/** The rules in the engine's order; an empty document says so. */
export function summarizeRules(rules: StoredPolicyRules): string[] {
  const lines: string[] = [];
  if (rules.maxPerTransaction !== undefined) lines.push(`Up to ${formatRuleDollars(rules.maxPerTransaction)} per payment`);
  if (rules.dailyLimit !== undefined) lines.push(`${formatRuleDollars(rules.dailyLimit)} per rolling 24 hours`);
  if (rules.monthlyBudget !== undefined) lines.push(`${formatRuleDollars(rules.monthlyBudget)} per calendar month`);
  if (rules.approvalThreshold !== undefined) lines.push(`Owner approval above ${formatRuleDollars(rules.approvalThreshold)}`);
  if (rules.allowedCategories) lines.push(`Only categories: ${list(rules.allowedCategories)}`);
  if (rules.blockedCategories) lines.push(`Blocks categories: ${list(rules.blockedCategories)}`);
  if (rules.allowedMerchants) lines.push(`Only merchants: ${list(rules.allowedMerchants, formatMerchant)}`);
  if (rules.blockedMerchants) lines.push(`Blocks merchants: ${list(rules.blockedMerchants, formatMerchant)}`);
  if (rules.allowedCountries) lines.push(`Only countries: ${list(rules.allowedCountries)}`);
  if (rules.blockedCountries) lines.push(`Blocks countries: ${list(rules.blockedCountries)}`);
  if (rules.timeWindows) {
    const windows = rules.timeWindows.map((window) => `${formatDays(window.days)} ${window.start}–${window.end}`);
    lines.push(`Only ${list(windows)} UTC`);
  }
  if (rules.kyaEscalation !== undefined) lines.push(`Approval may stand in for KYA up to ${rules.kyaEscalation}`);
  if (rules.timeBox !== undefined) lines.push(`Approvals wait up to ${rules.timeBox}`);
  if (rules.preferredProtocol !== undefined) lines.push(`Pays in ${PROTOCOL_NAMES[rules.preferredProtocol]} when a seller offers x402 and MPP`);
  return lines.length > 0 ? lines : ['No rules'];
}
