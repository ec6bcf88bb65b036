/**
 * An agent's request-signing keys (purpose http_signature): the one current key that signs its
 * outgoing HTTP requests, and the keys its directory publishes (the current one, and one rotated
 * out until its overlap ends, so requests signed just before still verify). The private half is
 * encrypted like every agent key (agent-keys.ts) and decrypted only to sign, inside the server.
 *
 * A key's `keyid` is its RFC 7638 JWK SHA-256 thumbprint: what every signature names, what a
 * verifier looks up in the directory.
 */
import { webcrypto } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';
import { AppError, SIGNING_KEY_ROTATION_OVERLAP_SECONDS } from '@purser/core';
import type { TransactionClient } from '@purser/db';
import { decryptSecret } from '../../secrets';
import { agentKeyBinding, agentKeyColumns, generateEd25519Key, identityPublicJwk } from './agent-keys';

export interface PublishedSigningKey {
  id: string;
  /** base64url of the raw 32-byte Ed25519 public key (the JWK's x). */
  publicKey: string;
  keyid: string;
  createdAt: Date;
  /** Null while current; when a key rotated out leaves the directory. */
  retiresAt: Date | null;
  lastSignedAt: Date | null;
  lastSignedHost: string | null;
}

const keyids = new Map<string, string>();

/** The RFC 7638 thumbprint of an Ed25519 public key (memoised: a key never changes). */
export async function signingKeyId(publicKey: string): Promise<string> {
  const known = keyids.get(publicKey);
  if (known) return known;
  const keyid = await calculateJwkThumbprint({ ...identityPublicJwk(publicKey) }, 'sha256');
  keyids.set(publicKey, keyid);
  return keyid;
}

/** The keys the agent's directory publishes at `now`: the current one first, then those rotating out. */
export async function publishedSigningKeys(prisma: TransactionClient, agentId: string, now = new Date()): Promise<PublishedSigningKey[]> {
  const rows = await prisma.agentKey.findMany({
    where: { agentId, purpose: 'http_signature', OR: [{ revokedAt: null }, { revokedAt: { gt: now } }] },
    orderBy: { createdAt: 'desc' },
    select: { id: true, publicKey: true, createdAt: true, revokedAt: true, lastSignedAt: true, lastSignedHost: true },
  });
  rows.sort((a, b) => Number(a.revokedAt !== null) - Number(b.revokedAt !== null));
  return Promise.all(
    rows.map(async (row) => ({
      id: row.id,
      publicKey: row.publicKey,
      keyid: await signingKeyId(row.publicKey),
      createdAt: row.createdAt,
      retiresAt: row.revokedAt,
      lastSignedAt: row.lastSignedAt,
      lastSignedHost: row.lastSignedHost,
    })),
  );
}

/**
 * The agent's current signing key row, made now when it has none (an agent created before
 * request signing): two requests doing so at once make one, the partial unique index
 * `agent_keys_current_http_signature` deciding.
 */
export async function currentSigningKeyRow(prisma: TransactionClient, masterKey: Buffer, agentId: string): Promise<{ id: string; publicKey: string }> {
  const find = () =>
    prisma.agentKey.findFirst({ where: { agentId, purpose: 'http_signature', revokedAt: null }, select: { id: true, publicKey: true } });
  const found = await find();
  if (found) return found;
  await prisma.agentKey.createMany({ data: [{ agentId, ...agentKeyColumns(generateEd25519Key(masterKey, 'http_signature')) }], skipDuplicates: true });
  const made = await find();
  if (!made) throw new AppError('INTERNAL', 'The agent has no request-signing key');
  return made;
}

/**
 * Replaces the agent's current signing key with a new one, in the caller's transaction (which
 * holds the agent's row lock). A rotation keeps the old key published for the overlap; a
 * revocation (a key thought compromised) takes it out of the directory at once.
 */
export async function replaceSigningKey(
  tx: TransactionClient,
  masterKey: Buffer,
  agentId: string,
  options: { revoke: boolean; now?: Date },
): Promise<{ retired: PublishedSigningKey | null; current: { id: string; keyid: string } }> {
  const now = options.now ?? new Date();
  const retiresAt = options.revoke ? now : new Date(now.getTime() + SIGNING_KEY_ROTATION_OVERLAP_SECONDS * 1000);
  const before = await tx.agentKey.findFirst({
    where: { agentId, purpose: 'http_signature', revokedAt: null },
    select: { id: true, publicKey: true, createdAt: true, lastSignedAt: true, lastSignedHost: true },
  });
  if (before) await tx.agentKey.update({ where: { id: before.id }, data: { revokedAt: retiresAt } });
  // A revocation also ends, at once, the overlap of a key an earlier rotation retired.
  if (options.revoke) await tx.agentKey.updateMany({ where: { agentId, purpose: 'http_signature', revokedAt: { gt: now } }, data: { revokedAt: now } });
  const key = generateEd25519Key(masterKey, 'http_signature');
  await tx.agentKey.create({ data: { agentId, ...agentKeyColumns(key) } });
  forgetSigningKeys(agentId);
  return {
    retired: before ? { ...before, keyid: await signingKeyId(before.publicKey), retiresAt } : null,
    current: { id: key.id, keyid: await signingKeyId(key.publicKey) },
  };
}

/**
 * Decrypted signing keys by key row (a row's key never changes): one decryption per key and
 * process. Only for the master key that decrypted it; dropped on rotation, suspension, deletion.
 */
const cryptoKeys = new Map<string, { agentId: string; masterKey: Buffer; key: webcrypto.CryptoKey }>();

/** The key row's private key as a WebCrypto Ed25519 key that can only sign (the seed is zeroed at once). */
export async function signingCryptoKey(prisma: TransactionClient, masterKey: Buffer, agentId: string, row: { id: string; publicKey: string }): Promise<webcrypto.CryptoKey> {
  const cached = cryptoKeys.get(row.id);
  if (cached?.masterKey === masterKey) return cached.key;
  const stored = await prisma.agentKey.findUniqueOrThrow({ where: { id: row.id }, select: { ciphertext: true, iv: true, tag: true } });
  const seed = decryptSecret(masterKey, { ciphertext: Buffer.from(stored.ciphertext), iv: Buffer.from(stored.iv), tag: Buffer.from(stored.tag) }, agentKeyBinding(row.id));
  const key = await webcrypto.subtle.importKey('jwk', { ...identityPublicJwk(row.publicKey), d: seed.toString('base64url') }, { name: 'Ed25519' }, false, ['sign']);
  seed.fill(0);
  cryptoKeys.set(row.id, { agentId, masterKey, key });
  return key;
}

/** Drops the agent's decrypted signing keys from this process (rotation, suspension, deletion). */
export function forgetSigningKeys(agentId: string): void {
  for (const [id, entry] of cryptoKeys) if (entry.agentId === agentId) cryptoKeys.delete(id);
}
