/**
 * The master key and the encryption of secrets at rest (agent private keys, webhook secrets).
 * AES-256-GCM from node:crypto with a fresh 96-bit IV per value; the record id is bound as
 * additional authenticated data, so a ciphertext copied onto another row does not decrypt.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const MASTER_KEY_FILE = 'master.key';

export interface EncryptedSecret {
  ciphertext: Buffer;
  iv: Buffer;
  tag: Buffer;
}

/**
 * MASTER_KEY from the environment, else the file MASTER_KEY_FILE names (how Docker secrets are
 * handed over), else the key file under DATA_DIR, created on first use.
 */
export async function loadMasterKey(options: { masterKey?: string; masterKeyFile?: string; dataDir: string }): Promise<Buffer> {
  if (options.masterKey) return Buffer.from(options.masterKey, 'base64');
  if (options.masterKeyFile) {
    const text = await readFile(options.masterKeyFile, 'utf8').catch((error: unknown) => {
      throw new Error(`MASTER_KEY_FILE ${options.masterKeyFile} cannot be read: ${(error as Error).message}`, { cause: error });
    });
    const key = Buffer.from(text.trim(), 'base64');
    if (key.length !== 32) throw new Error(`MASTER_KEY_FILE ${options.masterKeyFile} does not hold a 32-byte base64 key`);
    return key;
  }
  const file = path.join(options.dataDir, MASTER_KEY_FILE);
  try {
    const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32);
  // 'wx' fails if another process created the file meanwhile; then read theirs.
  try {
    await writeFile(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadMasterKey(options);
    throw error;
  }
  await chmod(file, 0o600);
  return key;
}

/** A key for one purpose derived from the master key (HKDF-SHA256), e.g. 'session-tokens'. */
export function deriveKey(masterKey: Buffer, purpose: string, length = 32): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `purser:${purpose}`, length));
}

export function encryptSecret(masterKey: Buffer, plaintext: Buffer | string, boundTo: string): EncryptedSecret {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', masterKey, iv);
  cipher.setAAD(Buffer.from(boundTo));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { ciphertext, iv, tag: cipher.getAuthTag() };
}

export function decryptSecret(masterKey: Buffer, secret: EncryptedSecret, boundTo: string): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', masterKey, secret.iv);
  decipher.setAAD(Buffer.from(boundTo));
  decipher.setAuthTag(secret.tag);
  return Buffer.concat([decipher.update(secret.ciphertext), decipher.final()]);
}

/**
 * SHA-256 (hex) of a high-entropy bearer secret (API keys, refresh tokens, invitation codes).
 * Such secrets are random, so a fast hash is enough; passwords use argon2id instead.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Compares two hex hashes in constant time. */
export function sameSecretHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
