// The agent page's Connections card: what it says of one OAuth connection (an MCP host or other
// client the owner approved on the consent page): its status, its cap against what it spent,
// and its dates.
import type { OAuthConnectionView, OAuthScope } from '@purser/core';
import { formatDollars } from './money';

export type ConnectionStatus = 'active' | 'expired' | 'revoked';

export function connectionStatus(connection: Pick<OAuthConnectionView, 'revokedAt' | 'expiresAt'>, now: number): ConnectionStatus {
  if (connection.revokedAt !== null) return 'revoked';
  if (connection.expiresAt !== null && Date.parse(connection.expiresAt) <= now) return 'expired';
  return 'active';
}

export const CONNECTION_STATUS_LABELS: Record<ConnectionStatus, string> = { active: 'Active', expired: 'Expired', revoked: 'Revoked' };

const REVOKED_BY = {
  owner: 'Revoked by you',
  client: 'Disconnected by the app',
  authorization_code_reuse: 'Revoked: its authorization code was used twice',
  refresh_token_reuse: 'Revoked: a refresh token was used twice',
} as const;

/** Why a revoked connection ended, in a sentence; null while it is not revoked. */
export function revokedReasonText(connection: Pick<OAuthConnectionView, 'revokedAt' | 'revokedReason'>): string | null {
  if (connection.revokedAt === null) return null;
  return connection.revokedReason ? REVOKED_BY[connection.revokedReason] : 'Revoked';
}

/** '$1.20 of $5.00' against a cap, '$1.20 (no cap)' without one. */
export function capAndSpent(connection: Pick<OAuthConnectionView, 'cap' | 'spent'>): string {
  return connection.cap === null ? `${formatDollars(connection.spent)} spent (no cap: the agent's rules apply)` : `${formatDollars(connection.spent)} spent of ${formatDollars(connection.cap)} cap`;
}

export const SCOPE_LABELS: Record<OAuthScope, string> = { read: 'Read', pay: 'Pay', fetch: 'Paid HTTP calls' };

const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** 'Dec 6, 2026' (UTC); '' when it is not a date. */
export function formatDate(iso: string): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? '' : dateFormat.format(at);
}

/** The client as the card names it: the name it gave, else its client id. */
export function connectionName(connection: Pick<OAuthConnectionView, 'clientName' | 'clientId'>): string {
  return connection.clientName?.trim() || connection.clientId;
}
