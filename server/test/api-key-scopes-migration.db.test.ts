/**
 * Owner API keys made before keys had scopes and an expiry: the migration gives each every scope
 * there is (so it keeps working as it did) and an expiry 90 days later (so it does not work
 * forever), and the new guard refuses a key without scopes.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_API_KEY_SCOPES } from '@purser/core';
import type { Database } from '@purser/db';
import { authenticateOwnerApiKey } from '../src/services/api-keys/authenticate-owner-api-key';
import { generateOwnerApiKey } from '../src/services/api-keys/owner-api-key-secret';
import { openDatabaseBefore, type DatabaseBeforeMigration } from './support/database-before-migration';

const SCOPES_MIGRATION = '20261205232927_owner_api_key_scopes';
const DAY_MS = 86_400_000;

describe('owner API keys made before scopes', () => {
  let before: DatabaseBeforeMigration;
  let db: Database;
  const ownerId = randomUUID();
  const legacy = generateOwnerApiKey();
  let migratedAt: number;

  beforeAll(async () => {
    before = await openDatabaseBefore(SCOPES_MIGRATION);
    await before.sql(`
      INSERT INTO users (id, email, password_hash, full_name, updated_at) VALUES ('${ownerId}', 'legacy@example.test', 'x', 'Legacy Owner', now());
      INSERT INTO owner_api_keys (id, user_id, name, prefix, key_hash) VALUES ('${randomUUID()}', '${ownerId}', 'old automation', '${legacy.prefix}', '${legacy.keyHash}');
    `);
    migratedAt = Date.now();
    db = await before.migrateAndOpen();
  }, 120_000);

  afterAll(async () => {
    await before?.cleanup();
  });

  it('get every scope, so they keep working as they did, and expire 90 days after the migration', async () => {
    const key = await authenticateOwnerApiKey(db.prisma, legacy.key);
    expect(key?.userId).toBe(ownerId);
    expect(key?.apiKey.scopes).toEqual([...OWNER_API_KEY_SCOPES]);
    const expiresAt = key!.apiKey.expiresAt.getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(migratedAt + 90 * DAY_MS - 60_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 90 * DAY_MS);
  });

  it('leave no key without scopes: the database refuses one', async () => {
    const fresh = generateOwnerApiKey();
    const insert = db.prisma.$executeRawUnsafe(
      `INSERT INTO owner_api_keys (id, user_id, prefix, key_hash, scopes, expires_at) VALUES ($1::uuid, $2::uuid, $3, $4, '{}', now() + interval '1 day')`,
      randomUUID(),
      ownerId,
      fresh.prefix,
      fresh.keyHash,
    );
    await expect(insert).rejects.toThrow(/owner_api_keys_scopes_not_empty/);
  });
});
