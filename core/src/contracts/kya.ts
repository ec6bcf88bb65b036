/**
 * Contracts of KYA escalation: an owner asks to raise an agent's Know-Your-Agent tier and
 * hands in evidence about who stands behind the agent. The evidence a tier needs grows with
 * the tier, each tier asking for everything the one below asks for and more:
 *
 * | tier     | evidence                                                              |
 * |----------|-----------------------------------------------------------------------|
 * | basic    | legal_name, contact_email                                             |
 * | moderate | + country (ISO 3166-1 alpha-2), registration_number                   |
 * | high     | + document_sha256 (of the identity or registration document), beneficial_owner_name |
 *
 * The document itself is never sent, only its SHA-256: the evidence is kept for good as the
 * verification's record, so it holds what was checked and no more. Unknown fields are refused
 * for the same reason. The surface is snake_case like the other agent contracts.
 */
import { z } from 'zod';
import { agentIdSchema, agentView, KYA_TIER_NAMES } from './agents';
import { COUNTRY_CODE_HINTS, COUNTRY_CODES } from '../policy/country-codes';

/** Tiers an escalation can ask for: every tier above the lowest. */
export const KYA_ESCALATION_TARGETS = ['basic', 'moderate', 'high'] as const;
export type KyaEscalationTarget = (typeof KYA_ESCALATION_TARGETS)[number];

export const KYA_ESCALATION_TIER_MESSAGE = `tier must be the tier to raise the agent to: ${KYA_ESCALATION_TARGETS.join(', ')}`;
export const KYA_VERIFICATION_STATUSES = ['verified', 'rejected'] as const;

const TEXT_MAX_LENGTH = 200;

/** The evidence fields each tier needs, in the order the table above lists them. */
export const KYA_EVIDENCE_FIELDS: Readonly<Record<KyaEscalationTarget, readonly string[]>> = {
  basic: ['legal_name', 'contact_email'],
  moderate: ['legal_name', 'contact_email', 'country', 'registration_number'],
  high: ['legal_name', 'contact_email', 'country', 'registration_number', 'document_sha256', 'beneficial_owner_name'],
};

function missingOr(tier: KyaEscalationTarget, field: string, what: string) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined ? `evidence.${field} is required for the ${tier} tier: ${what}` : `evidence.${field} must be ${what}`;
}

function text(tier: KyaEscalationTarget, field: string, what: string) {
  const message = missingOr(tier, field, what);
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: `evidence.${field} must not be blank` })
    .max(TEXT_MAX_LENGTH, { error: `evidence.${field} must be at most ${TEXT_MAX_LENGTH} characters` });
}

function email(tier: KyaEscalationTarget) {
  const what = 'an email address to reach the person or organisation behind the agent';
  return z
    .string({ error: missingOr(tier, 'contact_email', what) })
    .trim()
    .pipe(z.email({ error: `evidence.contact_email must be ${what}` }))
    .transform((value) => value.toLowerCase());
}

function country(tier: KyaEscalationTarget) {
  const what = 'an ISO 3166-1 alpha-2 country code, such as DE or US';
  return z.string({ error: missingOr(tier, 'country', what) }).transform((value, ctx) => {
    const upper = value.trim().toUpperCase();
    if (!COUNTRY_CODES.has(upper)) {
      const hint = COUNTRY_CODE_HINTS[upper];
      ctx.addIssue({
        code: 'custom',
        message: `evidence.country: "${value}" is not an assigned ISO 3166-1 alpha-2 country code${hint ? ` (did you mean ${hint}?)` : ''}`,
      });
      return z.NEVER;
    }
    return upper;
  });
}

function documentHash(tier: KyaEscalationTarget) {
  const what = 'the SHA-256 of the identity or registration document, 64 hexadecimal characters';
  return z
    .string({ error: missingOr(tier, 'document_sha256', what) })
    .trim()
    .regex(/^[0-9a-fA-F]{64}$/, { error: `evidence.document_sha256 must be ${what}` })
    .transform((value) => value.toLowerCase());
}

function strictEvidence<S extends z.core.$ZodLooseShape>(tier: KyaEscalationTarget, shape: S) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown evidence field ${issue.keys.join(', ')}: the ${tier} tier takes ${KYA_EVIDENCE_FIELDS[tier].join(', ')}`
        : `evidence must be an object with ${KYA_EVIDENCE_FIELDS[tier].join(', ')}`,
  });
}

function basicFields(tier: KyaEscalationTarget) {
  return {
    legal_name: text(tier, 'legal_name', 'the legal name of the person or organisation behind the agent'),
    contact_email: email(tier),
  };
}

function moderateFields(tier: KyaEscalationTarget) {
  return {
    ...basicFields(tier),
    country: country(tier),
    registration_number: text(tier, 'registration_number', "the organisation's registration number in its country's company register"),
  };
}

export const basicKyaEvidence = strictEvidence('basic', basicFields('basic'));
export const moderateKyaEvidence = strictEvidence('moderate', moderateFields('moderate'));
export const highKyaEvidence = strictEvidence('high', {
  ...moderateFields('high'),
  document_sha256: documentHash('high'),
  beneficial_owner_name: text('high', 'beneficial_owner_name', 'the name of the natural person who ultimately owns or controls the organisation'),
});

const escalationVariants = [
  z.object({ tier: z.literal('basic'), evidence: basicKyaEvidence }),
  z.object({ tier: z.literal('moderate'), evidence: moderateKyaEvidence }),
  z.object({ tier: z.literal('high'), evidence: highKyaEvidence }),
] as const;

/** The REST body (the agent id is in the path): `{ tier, evidence }`. */
export const kyaEscalationBody = z.discriminatedUnion('tier', escalationVariants, { error: KYA_ESCALATION_TIER_MESSAGE });
export type KyaEscalationBody = z.input<typeof kyaEscalationBody>;
/** A parsed escalation: the tier asked for and its evidence. */
export type KyaEscalationRequest = z.output<typeof kyaEscalationBody>;

/** `{ agent_id, tier, evidence }`: the evidence the tier needs, validated against that tier. */
export const requestKyaEscalationInput = z.discriminatedUnion(
  'tier',
  [
    escalationVariants[0].extend({ agent_id: agentIdSchema }),
    escalationVariants[1].extend({ agent_id: agentIdSchema }),
    escalationVariants[2].extend({ agent_id: agentIdSchema }),
  ],
  { error: KYA_ESCALATION_TIER_MESSAGE },
);
export type RequestKyaEscalationBody = z.input<typeof requestKyaEscalationInput>;
export type RequestKyaEscalationInput = z.output<typeof requestKyaEscalationInput>;
export type KyaEvidence = RequestKyaEscalationInput['evidence'];

// ---------------------------------------------------------------- responses

/** One verification: what was asked, with what evidence, and how it ended. Never edited. */
export const kyaVerificationView = z.object({
  id: z.string(),
  agent_id: z.string(),
  from_tier: z.enum(KYA_TIER_NAMES),
  to_tier: z.enum(KYA_TIER_NAMES),
  status: z.enum(KYA_VERIFICATION_STATUSES),
  /** `sandbox`: the evidence's shape and the sandbox rules were checked; no identity provider was asked. */
  method: z.string(),
  evidence: z.record(z.string(), z.unknown()),
  /** Why a verification was rejected; null when verified. */
  reason: z.string().nullable(),
  requested_by: z.string(),
  created_at: z.string(),
});
export type KyaVerificationView = z.infer<typeof kyaVerificationView>;

/** The verification and the agent after it (its tier and credential changed only when verified). */
export const kyaEscalationResult = z.object({ verification: kyaVerificationView, agent: agentView });
export type KyaEscalationResult = z.infer<typeof kyaEscalationResult>;

export const listKyaVerificationsResult = z.array(kyaVerificationView);
