/**
 * The HTTP message signature (RFC 9421) on a request Purser sends for an agent, so the seller,
 * its CDN or a merchant can tell which agent of which owner is calling (docs/identity.md):
 * Web Bot Auth on a plain request (tag `web-bot-auth`), Visa's Trusted Agent Protocol on the
 * paid retry (tag `agent-payer-auth`). Each signature covers `@authority`, `@path` and the
 * `Signature-Agent` header (the current draft's dictionary form, `sig1="<directory URL>"`),
 * carries a fresh nonce, and lives REQUEST_SIGNATURE_LIFETIME_SECONDS (TAP allows 8 minutes).
 *
 * The owner decides which requests are signed (the agent's `request_signing`), and Purser signs
 * nothing for a host the owner's policies refuse: that request is refused, never sent.
 */
import { createSignature, component, webcrypto as httpsigWebcrypto, type RequestDescriptor } from 'http-message-sig';
import { generateNonce } from 'web-bot-auth';
import {
  AppError,
  hostRefusal,
  REQUEST_SIGNATURE_LIFETIME_SECONDS,
  type HttpSignatureTag,
  type PolicyDocument,
  type RequestSignatureView,
  type RequestSigningMode,
} from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { policyDocumentsOf, type PolicyRowJson } from '../policies/load-applicable-policies';
import { agentKeyDirectoryUrl } from './agent-key-directory';
import { currentSigningKeyRow, signingCryptoKey, signingKeyId } from './request-signing-keys';

/** The label of Purser's signature and of its Signature-Agent member. */
const LABEL = 'sig1';
/** A key's last use is written at most this often per host (a busy agent does not write on every call). */
const LAST_SIGNED_EVERY_MS = 10_000;

export interface RequestSigningDeps {
  prisma: TransactionClient;
  masterKey: Buffer;
  publicUrl: string;
}

export interface SignedRequest {
  /** Signature-Agent, Signature-Input and Signature, lower-cased. */
  headers: Record<string, string>;
  record: RequestSignatureView;
}

/**
 * Signs an agent's requests with one key: made once per paid call, so its first request and its
 * paid retry carry the same key even if the owner rotates it in between.
 */
export interface AgentRequestSigner {
  /** The headers that sign this request; null when the owner's rule leaves it unsigned. */
  sign(request: { url: string; method: string }, tag: HttpSignatureTag): Promise<SignedRequest | null>;
}

/**
 * The agent's signer, or null when the owner signs none of its requests. The owner's policies
 * that apply to the agent (policies/load-applicable-policies.ts) say the hosts Purser signs
 * nothing for; they are read with the agent and its key, in one statement.
 */
export async function agentRequestSigner(deps: RequestSigningDeps, agent: { agentId: string; ownerId: string }): Promise<AgentRequestSigner | null> {
  const signing = await readSigning(deps.prisma, agent);
  if (!signing || signing.status !== 'active') throw new AppError('AGENT_SUSPENDED', 'The agent is not active: Purser signs nothing for it');
  const mode = signing.mode;
  if (mode === 'never') return null;
  const key = signing.key ?? (await currentSigningKeyRow(deps.prisma, deps.masterKey, agent.agentId));
  const policies = policyDocumentsOf(signing.policies);
  const [cryptoKey, keyid] = await Promise.all([signingCryptoKey(deps.prisma, deps.masterKey, agent.agentId, key), signingKeyId(key.publicKey)]);
  const directoryUrl = agentKeyDirectoryUrl(deps.publicUrl, agent.agentId);
  const signer = httpsigWebcrypto.signer(cryptoKey);

  return {
    async sign(request, tag) {
      if (mode === 'paid_only' && tag !== 'agent-payer-auth') return null;
      const url = new URL(request.url);
      assertHostAllowed(policies, url.host);
      const created = Math.floor(Date.now() / 1000);
      const expires = created + REQUEST_SIGNATURE_LIFETIME_SECONDS;
      const signatureAgent = `${LABEL}="${directoryUrl}"`;
      const message: RequestDescriptor = { kind: 'request', method: request.method, targetUri: url.href, fields: [{ name: 'signature-agent', value: signatureAgent }] };
      const fields = await createSignature(message, {
        label: LABEL,
        components: ['@authority', '@path', component('signature-agent', { key: LABEL })],
        parameters: { created, expires, keyid, alg: 'ed25519', nonce: generateNonce(), tag },
        signer,
      });
      await noteLastSigned(deps.prisma, key.id, url.host);
      return {
        headers: { 'signature-agent': signatureAgent, 'signature-input': fields.signatureInput, signature: fields.signature },
        record: {
          keyid,
          tag,
          host: url.host,
          signed_at: new Date(created * 1000).toISOString(),
          expires_at: new Date(expires * 1000).toISOString(),
          directory_url: directoryUrl,
        },
      };
    },
  };
}

/**
 * In one statement: the owner's rule and the agent's status, its current signing key (none yet
 * for an agent that never signed: currentSigningKeyRow makes it) and the policies whose host rules
 * it signs under (purser_applicable_policies, as a payment's gate reads them).
 */
async function readSigning(prisma: TransactionClient, agent: { agentId: string; ownerId: string }) {
  const [row] = await prisma.$queryRaw<{ mode: RequestSigningMode; status: string; key: { id: string; publicKey: string } | null; policies: PolicyRowJson[] }[]>`
    SELECT a."request_signing"::text AS "mode", a."status"::text AS "status",
           (SELECT jsonb_build_object('id', k."id", 'publicKey', k."public_key") FROM "agent_keys" k
             WHERE k."agent_id" = a."id" AND k."purpose" = 'http_signature' AND k."revoked_at" IS NULL LIMIT 1) AS "key",
           "purser_applicable_policies"(a."owner_id", a."id") AS "policies"
      FROM "agents" a WHERE a."id" = ${agent.agentId}::uuid AND a."owner_id" = ${agent.ownerId}::uuid`;
  return row ?? null;
}

function assertHostAllowed(policies: readonly PolicyDocument[], host: string): void {
  const refusal = hostRefusal(policies, host);
  if (refusal) throw new AppError('SIGNATURE_REFUSED', `${refusal.message} Purser signs nothing for that host; nothing was sent (${refusal.code}).`);
}

/** What this process last wrote of each key's use, so a busy agent's calls do not each ask the database. */
const lastNoted = new Map<string, { host: string; at: number }>();

/**
 * When the key last signed and for which host, for the owner's console; at most every
 * LAST_SIGNED_EVERY_MS per host. Within that time this process does not even ask: the call
 * costs no round trip (another process's note of the same host is as good).
 */
async function noteLastSigned(prisma: TransactionClient, keyId: string, host: string): Promise<void> {
  const now = Date.now();
  const noted = lastNoted.get(keyId);
  if (noted && noted.host === host && now - noted.at < LAST_SIGNED_EVERY_MS) return;
  lastNoted.set(keyId, { host, at: now });
  const since = new Date(now - LAST_SIGNED_EVERY_MS);
  await prisma.agentKey.updateMany({
    where: { id: keyId, OR: [{ lastSignedAt: null }, { lastSignedAt: { lt: since } }, { lastSignedHost: { not: host } }, { lastSignedHost: null }] },
    data: { lastSignedAt: new Date(now), lastSignedHost: host },
  });
}
