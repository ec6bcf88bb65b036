/**
 * An endpoint's signing secret: Standard Webhooks form (`whsec_` + base64 of random bytes),
 * stored AES-256-GCM encrypted under the master key and bound to the endpoint's id, so a
 * ciphertext copied onto another endpoint's row does not decrypt. The plaintext leaves the
 * server once, in the answer to create or rotate-secret.
 */
import { randomBytes } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from '@purser/core';
import { decryptSecret, encryptSecret } from '../../secrets';

/** 32 bytes: inside the spec's 24 to 64 and as strong as the HMAC-SHA256 key can use. */
const GENERATED_SECRET_BYTES = 32;

export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(GENERATED_SECRET_BYTES).toString('base64')}`;
}

/** Additional authenticated data of an endpoint secret's ciphertext. */
export function webhookSecretBinding(endpointId: string): string {
  return `webhook-endpoint:${endpointId}`;
}

/** The secret columns of WebhookEndpoint for `secret`, bound to `endpointId`. */
export function encryptWebhookSecret(masterKey: Buffer, endpointId: string, secret: string) {
  const encrypted = encryptSecret(masterKey, secret, webhookSecretBinding(endpointId));
  return {
    secretCiphertext: Uint8Array.from(encrypted.ciphertext),
    secretIv: Uint8Array.from(encrypted.iv),
    secretTag: Uint8Array.from(encrypted.tag),
  };
}

export function decryptWebhookSecret(
  masterKey: Buffer,
  endpointId: string,
  columns: { secretCiphertext: Uint8Array; secretIv: Uint8Array; secretTag: Uint8Array },
): string {
  return decryptSecret(
    masterKey,
    { ciphertext: Buffer.from(columns.secretCiphertext), iv: Buffer.from(columns.secretIv), tag: Buffer.from(columns.secretTag) },
    webhookSecretBinding(endpointId),
  ).toString('utf8');
}
