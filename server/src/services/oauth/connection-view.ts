/** A connection as the console lists it and the connection.* webhooks carry it (core's oauthConnectionView). */
import { OAUTH_REVOCATION_REASONS, toDecimalString, toDollars, type OAuthConnectionView, type OAuthRevocationReason } from '@purser/core';
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
  spentUnits: true,
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
  spentUnits: bigint;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  revokedReason: string | null;
}

const reasonOf = (reason: string | null): OAuthRevocationReason | null =>
  (OAUTH_REVOCATION_REASONS as readonly string[]).includes(reason ?? '') ? (reason as OAuthRevocationReason) : null;

export function toConnectionView(row: ConnectionRow): OAuthConnectionView {
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
    spent: toDollars(row.spentUnits),
    spentExact: toDecimalString(row.spentUnits),
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revokedReason: reasonOf(row.revokedReason),
  };
}
