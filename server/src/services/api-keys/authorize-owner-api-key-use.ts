/**
 * Whether an owner API key may make this call (not expired, holding the route's scope), and the
 * record of the use: every call made with a key, allowed or refused, is one entry in its owner's
 * audit chain, written before the route runs. A refused call runs nothing.
 *
 * The hot path is one short transaction per call: the entry (the owner's chain head locked only
 * between its insert and the commit, as for any audited change) and, at most once a minute, the
 * key's last use. Calls of one owner queue on that head for those few milliseconds; other
 * owners' calls do not wait.
 */
import { AppError, type OwnerApiKeyScope } from '@purser/core';
import type { PrismaClient, TransactionClient } from '@purser/db';
import { appendAuditEvent, withAuditRetry } from '../audit/append-audit-event';
import type { OwnerApiKeyGrant } from './owner-api-key-grant';

/** What a route asks of a key: one scope, or 'session' where no key may call (managing keys). */
export type RouteScope = OwnerApiKeyScope | 'session';

export interface OwnerApiKeyUse {
  scope: RouteScope;
  method: string;
  /** The route's pattern, e.g. /api/v1/intents/:intentId/approve: never ids or query strings. */
  route: string;
  operation: string;
  requestId: string;
}

export type OwnerApiKeyUseOutcome = 'allowed' | 'expired' | 'scope_missing' | 'session_only';

/** lastUsedAt is a hint for the owner (the audit log has every use): one write a minute per key is enough. */
const LAST_USED_RESOLUTION_MS = 60_000;

export async function authorizeOwnerApiKeyUse(
  prisma: PrismaClient,
  owner: { userId: string; apiKey: OwnerApiKeyGrant },
  use: OwnerApiKeyUse,
  now: Date = new Date(),
): Promise<void> {
  const { apiKey } = owner;
  const outcome = outcomeOf(apiKey, use.scope, now);
  await withAuditRetry(prisma, async (tx: TransactionClient) => {
    if (!apiKey.lastUsedAt || now.getTime() - apiKey.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      await tx.ownerApiKey.update({ where: { id: apiKey.id }, data: { lastUsedAt: now }, select: { id: true } });
    }
    await appendAuditEvent(tx, {
      actor: `owner:${owner.userId}`,
      action: 'owner_api_key.used',
      subject: `owner_api_key:${apiKey.id}`,
      ownerId: owner.userId,
      data: { method: use.method, route: use.route, operation: use.operation, scope: use.scope, outcome, request_id: use.requestId },
      at: now,
    });
  });
  if (outcome === 'expired') {
    throw new AppError('API_KEY_EXPIRED', `This API key expired at ${apiKey.expiresAt.toISOString()}. Create a new key in the console (API keys).`);
  }
  if (outcome === 'session_only') {
    throw new AppError('FORBIDDEN', 'API keys cannot call this operation: it needs a signed-in session');
  }
  if (outcome === 'scope_missing') {
    throw new AppError('API_KEY_SCOPE_MISSING', `This API key lacks the scope "${use.scope}" that ${use.method} ${use.route} requires. Create a key with it.`, {
      details: { requiredScope: use.scope },
    });
  }
}

function outcomeOf(apiKey: OwnerApiKeyGrant, scope: RouteScope, now: Date): OwnerApiKeyUseOutcome {
  if (apiKey.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (scope === 'session') return 'session_only';
  return apiKey.scopes.includes(scope) ? 'allowed' : 'scope_missing';
}
