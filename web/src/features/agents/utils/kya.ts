// KYA on the agent page: a tier's eIDAS level and caps, and the escalation form's fields <->
// agents.requestKyaEscalation's input, checked with the server's own schema (core's
// requestKyaEscalationInput) so each field shows the message the server would answer.
import {
  KYA_ESCALATION_TARGETS,
  KYA_EVIDENCE_FIELDS,
  KYA_TIER_CAPS,
  KYA_TIER_EIDAS_LEVELS,
  KYA_TIER_NAMES,
  requestKyaEscalationInput,
  toDecimalString,
  type KyaEscalationTarget,
  type KyaTier,
  type RequestKyaEscalationBody,
} from '@purser/core';

export type { KyaEscalationTarget, KyaTier };

export const EVIDENCE_FIELDS = ['legal_name', 'contact_email', 'country', 'registration_number', 'document_sha256', 'beneficial_owner_name'] as const;
export type EvidenceField = (typeof EVIDENCE_FIELDS)[number];

export const EVIDENCE_LABELS: Readonly<Record<EvidenceField, { label: string; help: string }>> = {
  legal_name: { label: 'Legal name', help: 'Of the person or organisation behind the agent' },
  contact_email: { label: 'Contact email', help: 'Where that person or organisation can be reached' },
  country: { label: 'Country', help: 'ISO 3166-1 alpha-2 code, such as DE or US' },
  registration_number: { label: 'Registration number', help: "In the country's company register" },
  document_sha256: { label: 'Document SHA-256', help: 'Of the identity or registration document; only this hash is sent' },
  beneficial_owner_name: { label: 'Beneficial owner', help: 'The natural person who ultimately owns or controls the organisation' },
};

export function tierLabel(tier: string): string {
  return tier.charAt(0).toUpperCase() + tier.slice(1);
}

export interface TierFacts {
  tier: KyaTier;
  /** The eIDAS level of assurance: none, low, substantial, high. */
  eidas: string;
  /** Dollars, as exact decimal strings. */
  perTransaction: string;
  perDay: string;
}

export function tierFacts(tier: KyaTier): TierFacts {
  const caps = KYA_TIER_CAPS[tier];
  return { tier, eidas: KYA_TIER_EIDAS_LEVELS[tier], perTransaction: toDecimalString(caps.perTransaction), perDay: toDecimalString(caps.perDay) };
}

/** The tiers an escalation from `current` can ask for: every tier above it. */
export function escalationTargets(current: KyaTier): KyaEscalationTarget[] {
  const rank = KYA_TIER_NAMES.indexOf(current);
  return KYA_ESCALATION_TARGETS.filter((tier) => KYA_TIER_NAMES.indexOf(tier) > rank);
}

/** The evidence a tier needs, in the contract's order. */
export function evidenceFields(tier: KyaEscalationTarget): EvidenceField[] {
  return KYA_EVIDENCE_FIELDS[tier] as EvidenceField[];
}

export type EvidenceForm = Record<EvidenceField, string>;

export const EMPTY_EVIDENCE: EvidenceForm = {
  legal_name: '',
  contact_email: '',
  country: '',
  registration_number: '',
  document_sha256: '',
  beneficial_owner_name: '',
};

export type EscalationResult =
  | { ok: true; input: RequestKyaEscalationBody }
  | { ok: false; errors: Partial<Record<EvidenceField | 'tier', string>> };

/** The mutation's input (only the fields the tier takes), or each wrong field's first message. */
export function escalationInput(agentId: string, tier: KyaEscalationTarget, form: EvidenceForm): EscalationResult {
  const evidence = Object.fromEntries(
    evidenceFields(tier)
      .filter((field) => form[field].trim() !== '')
      .map((field) => [field, form[field]]),
  );
  const input = { agent_id: agentId, tier, evidence } as RequestKyaEscalationBody;
  const parsed = requestKyaEscalationInput.safeParse(input);
  if (parsed.success) return { ok: true, input };
  const errors: Partial<Record<EvidenceField | 'tier', string>> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] === 'evidence' ? EVIDENCE_FIELDS.find((field) => field === issue.path[1]) : 'tier';
    if (key && !errors[key]) errors[key] = issue.message;
  }
  return { ok: false, errors };
}

/** The hexadecimal SHA-256 of a file's bytes, computed in the browser: the file is never sent. */
export async function sha256Hex(data: ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', data);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
