import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decryptSecret, deriveKey, encryptSecret, loadMasterKey, MASTER_KEY_FILE } from './secrets';

describe('secrets at rest', () => {
  it('round-trips a secret bound to its record, with a fresh IV each time', () => {
    const key = randomBytes(32);
    const first = encryptSecret(key, 'private key bytes', 'agent-key:1');
    const second = encryptSecret(key, 'private key bytes', 'agent-key:1');
    expect(first.iv.equals(second.iv)).toBe(false);
    expect(first.ciphertext.toString()).not.toContain('private');
    expect(decryptSecret(key, first, 'agent-key:1').toString()).toBe('private key bytes');
  });

  it('refuses a ciphertext moved to another record, altered, or read with another key', () => {
    const key = randomBytes(32);
    const secret = encryptSecret(key, 'secret', 'agent-key:1');
    expect(() => decryptSecret(key, secret, 'agent-key:2')).toThrow();
    const tampered = { ...secret, ciphertext: Buffer.from(secret.ciphertext.map((byte, i) => (i === 0 ? byte ^ 1 : byte))) };
    expect(() => decryptSecret(key, tampered, 'agent-key:1')).toThrow();
    expect(() => decryptSecret(randomBytes(32), secret, 'agent-key:1')).toThrow();
  });

  it('generates the embedded master key once, readable by its owner only', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'purser-key-'));
    const first = await loadMasterKey({ dataDir });
    const again = await loadMasterKey({ dataDir });
    expect(first.length).toBe(32);
    expect(again.equals(first)).toBe(true);
    expect(statSync(path.join(dataDir, MASTER_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('prefers MASTER_KEY from the environment', async () => {
    const key = randomBytes(32);
    const loaded = await loadMasterKey({ masterKey: key.toString('base64'), dataDir: '/nonexistent' });
    expect(loaded.equals(key)).toBe(true);
  });

  it('reads MASTER_KEY_FILE (a Docker secret) when MASTER_KEY is unset, and writes no key of its own', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'purser-key-'));
    const key = randomBytes(32);
    const file = path.join(dir, 'master_key');
    writeFileSync(file, `${key.toString('base64')}\n`);
    const loaded = await loadMasterKey({ masterKeyFile: file, dataDir: dir });
    expect(loaded.equals(key)).toBe(true);
    expect(existsSync(path.join(dir, MASTER_KEY_FILE))).toBe(false);
  });

  it('refuses a MASTER_KEY_FILE that is missing or holds no 32-byte key, naming it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'purser-key-'));
    const short = path.join(dir, 'short');
    writeFileSync(short, randomBytes(16).toString('base64'));
    await expect(loadMasterKey({ masterKeyFile: short, dataDir: dir })).rejects.toThrow(`MASTER_KEY_FILE ${short} does not hold a 32-byte base64 key`);
    const missing = path.join(dir, 'missing');
    await expect(loadMasterKey({ masterKeyFile: missing, dataDir: dir })).rejects.toThrow(`MASTER_KEY_FILE ${missing} cannot be read`);
  });

  it('derives distinct keys per purpose', () => {
    const key = randomBytes(32);
    expect(deriveKey(key, 'a').equals(deriveKey(key, 'b'))).toBe(false);
    expect(deriveKey(key, 'a').equals(deriveKey(key, 'a'))).toBe(true);
  });
});
