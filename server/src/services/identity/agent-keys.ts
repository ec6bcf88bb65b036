/**
 * An agent's key pairs: Ed25519 for its DID (identity), secp256k1 for its EVM wallet, and
 * Ed25519 for the signatures on its outgoing HTTP requests (http_signature, rotated on its own:
 * request-signing-keys.ts).
 * Private keys are encrypted with the master key (AES-256-GCM, bound to the AgentKey row id)
 * before they reach the database and are decrypted only inside the server, never returned
 * by any route.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { JWK } from 'jose';
import { generatePrivateKey, privateKeyToAccount, type LocalAccount } from 'viem/accounts';
import { AppError } from '@purser/core';
import type { AgentKeyPurpose, TransactionClient } from '@purser/db';
import { decryptSecret, encryptSecret, type EncryptedSecret } from '../../secrets';

export interface NewAgentKey {
  /** The AgentKey row id, chosen before encrypting so the ciphertext is bound to it. */
  id: string;
  purpose: AgentKeyPurpose;
  /** identity: base64url of the raw 32-byte Ed25519 public key (the JWK's x); evm: 0x04... uncompressed key. */
  publicKey: string;
  encrypted: EncryptedSecret;
}

export interface NewAgentKeys {
  identity: NewAgentKey;
  evm: NewAgentKey & { address: `0x${string}` };
  httpSignature: NewAgentKey;
}

/** Additional authenticated data of an agent key's ciphertext. */
export function agentKeyBinding(agentKeyId: string): string {
  return `agent-key:${agentKeyId}`;
}

/** A new Ed25519 key pair, its 32-byte seed encrypted; the plaintext goes out of scope here. */
export function generateEd25519Key(masterKey: Buffer, purpose: 'identity' | 'http_signature'): NewAgentKey {
  const id = randomUUID();
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  if (!jwk.d || !jwk.x) throw new Error('Ed25519 key export lacks d or x');
  const seed = Buffer.from(jwk.d, 'base64url');
  const key = { id, purpose, publicKey: jwk.x, encrypted: encryptSecret(masterKey, seed, agentKeyBinding(id)) };
  seed.fill(0);
  return key;
}

/** The database columns of a new key. */
export function agentKeyColumns(key: NewAgentKey) {
  return {
    id: key.id,
    purpose: key.purpose,
    publicKey: key.publicKey,
    ciphertext: Uint8Array.from(key.encrypted.ciphertext),
    iv: Uint8Array.from(key.encrypted.iv),
    tag: Uint8Array.from(key.encrypted.tag),
  };
}

/** Generates the agent's three key pairs and encrypts the private halves. */
export function generateAgentKeys(masterKey: Buffer): NewAgentKeys {
  const evmId = randomUUID();
  const evmPrivateKey = generatePrivateKey();
  const account = privateKeyToAccount(evmPrivateKey);
  const evmRaw = Buffer.from(evmPrivateKey.slice(2), 'hex');

  const keys: NewAgentKeys = {
    identity: generateEd25519Key(masterKey, 'identity'),
    httpSignature: generateEd25519Key(masterKey, 'http_signature'),
    evm: {
      id: evmId,
      purpose: 'evm',
      publicKey: account.publicKey,
      address: account.address,
      encrypted: encryptSecret(masterKey, evmRaw, agentKeyBinding(evmId)),
    },
  };
  evmRaw.fill(0);
  return keys;
}

/** The Ed25519 public key of an identity AgentKey row as a JWK. */
export function identityPublicJwk(publicKey: string): JWK {
  return { kty: 'OKP', crv: 'Ed25519', x: publicKey };
}

/**
 * Agents' EVM accounts, decrypted once per process and master key: signing an x402 payment in
 * the request must not read and decrypt the key each time. Only the current key is kept (a
 * revoked one is read for its one use); an agent's entry is dropped when it is suspended or
 * deleted (`forgetAgentEvmAccount`). What may sign is decided elsewhere, in the same
 * transaction as the hold (the agent's status), never by the cache.
 */
const evmAccounts = new WeakMap<Buffer, Map<string, LocalAccount>>();

/**
 * The agent's EVM key as a viem account (the decrypted buffer is zeroed at once); options as
 * readAgentPrivateKey's.
 */
export async function readAgentEvmAccount(prisma: TransactionClient, masterKey: Buffer, agentId: string, options: { evenIfRevoked?: boolean } = {}): Promise<LocalAccount> {
  const cached = options.evenIfRevoked ? undefined : evmAccounts.get(masterKey)?.get(agentId);
  if (cached) return cached;
  const key = await readAgentPrivateKey(prisma, masterKey, agentId, 'evm', options);
  const account = privateKeyToAccount(`0x${key.toString('hex')}`);
  key.fill(0);
  if (!options.evenIfRevoked) {
    if (!evmAccounts.has(masterKey)) evmAccounts.set(masterKey, new Map());
    evmAccounts.get(masterKey)!.set(agentId, account);
  }
  return account;
}

/** Drops the agent's decrypted account from this process (suspension, deletion). */
export function forgetAgentEvmAccount(masterKey: Buffer, agentId: string): void {
  evmAccounts.get(masterKey)?.delete(agentId);
}

/**
 * The agent's current private key of a purpose, decrypted: the 32-byte Ed25519 seed or the
 * 32-byte secp256k1 scalar. For server-side signing only (x402 payments, key-bound
 * presentations); callers have already authorised the agent or its owner.
 */
export async function readAgentPrivateKey(
  prisma: TransactionClient,
  masterKey: Buffer,
  agentId: string,
  purpose: AgentKeyPurpose,
  /** Only to void what the key already signed (cancelling a deleted agent's x402 authorisations). */
  options: { evenIfRevoked?: boolean } = {},
): Promise<Buffer> {
  const row = await prisma.agentKey.findFirst({
    where: { agentId, purpose, ...(options.evenIfRevoked ? {} : { revokedAt: null }) },
    orderBy: { createdAt: 'desc' },
    select: { id: true, ciphertext: true, iv: true, tag: true },
  });
  if (!row) throw new AppError('NOT_FOUND', `The agent has no active ${purpose} key`);
  return decryptSecret(masterKey, { ciphertext: Buffer.from(row.ciphertext), iv: Buffer.from(row.iv), tag: Buffer.from(row.tag) }, agentKeyBinding(row.id));
}
