/**
 * The shape of an agent API key: `pak_<12 hex>_<43 base64url>`, like owner keys (`psk_`).
 * `pak_<12 hex>` is the visible prefix that finds the row; the whole key is stored only as
 * its SHA-256, so it is shown once, when it is created or rotated.
 */
import { randomBytes } from 'node:crypto';
import { hashSecret } from '../../secrets';
import type { CreatedAgentApiKeyView } from '@purser/core';
import type { TransactionClient } from '@purser/db';

export const AGENT_API_KEY_PREFIX = 'pak_';
const KEY_PATTERN = /^(pak_[0-9a-f]{12})_[A-Za-z0-9_-]{43}$/;

export interface GeneratedAgentApiKey {
  key: string;
  prefix: string;
  keyHash: string;
}

export function generateAgentApiKey(): GeneratedAgentApiKey {
  const prefix = `${AGENT_API_KEY_PREFIX}${randomBytes(6).toString('hex')}`;
  const key = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { key, prefix, keyHash: hashAgentApiKey(key) };
}

/** The prefix of a well-formed agent key, or null. */
export function agentApiKeyPrefix(key: string): string | null {
  return KEY_PATTERN.exec(key)?.[1] ?? null;
}

export function hashAgentApiKey(key: string): string {
  return hashSecret(key);
}

/** Stores a new key for the agent and answers it once. */
export async function createAgentApiKeyRow(tx: TransactionClient, agentId: string): Promise<CreatedAgentApiKeyView> {
  const generated = generateAgentApiKey();
  const row = await tx.agentApiKey.create({
    data: { agentId, prefix: generated.prefix, keyHash: generated.keyHash, name: 'default' },
    select: { id: true, prefix: true, createdAt: true },
  });
  return { id: row.id, key: generated.key, prefix: row.prefix, created_at: row.createdAt.toISOString() };
}
