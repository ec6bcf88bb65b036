/** A connection as the console lists it and the connection.* webhooks carry it (core's oauthConnectionView). */
import type { TransactionClient } from '@purser/db';
import { OAUTH_REVOCATION_REASONS, toDecimalString, toDollars, type OAuthConnectionView, type OAuthRevocationReason } from '@purser/core';
import { spentThroughConnection } from './connection-spend';
import { storedScopes } from './oauth-scopes';

export const connectionSelect = {
  id: true,
  agentId: true,
  clientId: true,
  clientName: true,
  clientUri: true,
  resource: true,
  scopes: true,
  capUnits: true,
  createdAt: true,
  lastUsedAt: true,
  expiresAt: true,
  revokedAt: true,
  revokedReason: true,
} as const;

export interface ConnectionRow {
  id: string;
  agentId: string;
  clientId: string;
  clientName: string | null;
  clientUri: string | null;
  resource: string;
  scopes: string[];
  capUnits: bigint | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  revokedReason: string | null;
}

const reasonOf = (reason: string | null): OAuthRevocationReason | null =>
  (OAUTH_REVOCATION_REASONS as readonly string[]).includes(reason ?? '') ? (reason as OAuthRevocationReason) : null;

/** The view of a connection that spent `spentUnits` (connection-spend.ts). */
export function toConnectionView(row: ConnectionRow, spentUnits: bigint): OAuthConnectionView {
  return {
    id: row.id,
    agentId: row.agentId,
    clientId: row.clientId,
    clientName: row.clientName,
    clientUri: row.clientUri,
    resource: row.resource,
    scopes: storedScopes(row.scopes),
    cap: row.capUnits === null ? null : toDollars(row.capUnits),
    capExact: row.capUnits === null ? null : toDecimalString(row.capUnits),
    spent: toDollars(spentUnits),
    spentExact: toDecimalString(spentUnits),
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revokedReason: reasonOf(row.revokedReason),
  };
}

/** The view of one connection, with what it spent read in `db` (a transaction's, for an event it emits). */
export async function viewConnection(db: Pick<TransactionClient, '$queryRaw'>, row: ConnectionRow): Promise<OAuthConnectionView> {
  return toConnectionView(row, await spentThroughConnection(db, row.id));
}
