/**
 * Contracts of an agent's identity towards the sellers it calls (docs/identity.md): the
 * Ed25519 key that signs its outgoing HTTP requests (Web Bot Auth, Visa Trusted Agent Protocol),
 * the directory that publishes it, the owner's rule of which requests are signed, and what a
 * payment records of the signature its paid request carried.
 */
import { z } from 'zod';

/** Which of an agent's outgoing requests Purser signs; `always` is the default. */
export const REQUEST_SIGNING_MODES = ['always', 'paid_only', 'never'] as const;
export type RequestSigningMode = (typeof REQUEST_SIGNING_MODES)[number];

/** The console's words for each mode. */
export const REQUEST_SIGNING_LABELS: Record<RequestSigningMode, string> = {
  always: 'Every request',
  paid_only: 'Only paid requests',
  never: 'Never',
};

/**
 * Signature tags: `web-bot-auth` on a plain request (IETF Web Bot Auth), `agent-payer-auth` on the
 * paid retry (Visa TAP). `agent-browser-auth` is TAP's browsing tag, which Purser does not send.
 */
export const HTTP_SIGNATURE_TAGS = ['web-bot-auth', 'agent-payer-auth'] as const;
export type HttpSignatureTag = (typeof HTTP_SIGNATURE_TAGS)[number];

/** How long a request signature is valid (`expires - created`); Visa TAP allows at most 8 minutes. */
export const REQUEST_SIGNATURE_LIFETIME_SECONDS = 300;
/** A key rotated out stays published this long, so requests it signed just before still verify. */
export const SIGNING_KEY_ROTATION_OVERLAP_SECONDS = 600;
/** How long a verifier may cache a directory or card: a suspension reaches every verifier within a minute. */
export const KEY_DIRECTORY_MAX_AGE_SECONDS = 30;
export const KEY_DIRECTORY_MEDIA_TYPE = 'application/http-message-signatures-directory+json';

export const publicEd25519Jwk = z.object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string() });

export const agentSigningKeyView = z.object({
  /** RFC 7638 JWK SHA-256 thumbprint, base64url: the `keyid` of every signature the key makes. */
  keyid: z.string(),
  algorithm: z.literal('ed25519'),
  public_key_jwk: publicEd25519Jwk,
  created_at: z.string(),
  /** Null while the key is current; when a key rotated out leaves the directory. */
  retires_at: z.string().nullable(),
  current: z.boolean(),
  last_signed_at: z.string().nullable(),
  last_signed_host: z.string().nullable(),
});
export type AgentSigningKeyView = z.infer<typeof agentSigningKeyView>;

export const agentIdentityView = z.object({
  agent_id: z.string(),
  did: z.string(),
  request_signing: z.enum(REQUEST_SIGNING_MODES),
  /** The key directory sellers fetch (named in every request's `Signature-Agent`). */
  directory_url: z.string(),
  signature_agent_card_url: z.string(),
  did_document_url: z.string(),
  /** The keys the directory publishes now: the current one first, then any rotating out. */
  keys: z.array(agentSigningKeyView),
  /** The last request signed for the agent, with any of its keys. */
  last_signed_at: z.string().nullable(),
  last_signed_host: z.string().nullable(),
});
export type AgentIdentityView = z.infer<typeof agentIdentityView>;

export const updateRequestSigningInput = z.object({
  request_signing: z.enum(REQUEST_SIGNING_MODES, { error: `request_signing must be one of ${REQUEST_SIGNING_MODES.join(', ')}` }),
});
export type UpdateRequestSigningInput = z.infer<typeof updateRequestSigningInput>;

/** What a payment keeps of the HTTP signature on its paid request (the payment page shows it). */
export const requestSignatureView = z.object({
  keyid: z.string(),
  tag: z.enum(HTTP_SIGNATURE_TAGS),
  host: z.string(),
  signed_at: z.string(),
  expires_at: z.string(),
  directory_url: z.string(),
});
export type RequestSignatureView = z.infer<typeof requestSignatureView>;
