// Payment sessions in words, for the approvals inbox, the agent page and the payment page (each
// its own feature, so the words live here): the scope, the status, and a session's short name.

export interface SessionScope {
  sellers?: string[] | undefined;
  categories?: string[] | undefined;
  protocols?: string[] | undefined;
  rails?: string[] | undefined;
}

/** 'Sellers api.example.com · Rails x402-base', or 'Any seller, category, protocol and rail'. */
export function scopeText(scope: SessionScope): string {
  const parts = (
    [
      ['Sellers', scope.sellers],
      ['Categories', scope.categories],
      ['Protocols', scope.protocols],
      ['Rails', scope.rails],
    ] as const
  ).flatMap(([label, list]) => (list && list.length > 0 ? [`${label} ${list.join(', ')}`] : []));
  return parts.length > 0 ? parts.join(' · ') : 'Any seller, category, protocol and rail';
}

export type SessionStatus = 'requested' | 'open' | 'rejected' | 'closed';
export type SessionCloseReason = 'spent' | 'expired' | 'revoked';

/** 'Open', 'Waiting for you', 'Closed: spent'... */
export function sessionStatusLabel(status: SessionStatus, closedReason: SessionCloseReason | null): string {
  switch (status) {
    case 'requested':
      return 'Waiting for you';
    case 'open':
      return 'Open';
    case 'rejected':
      return 'Rejected';
    case 'closed':
      return closedReason ? `Closed: ${CLOSE_REASONS[closedReason]}` : 'Closed';
  }
}

const CLOSE_REASONS: Record<SessionCloseReason, string> = { spent: 'all spent', expired: 'expired', revoked: 'revoked' };

/** A session's short name in links and lists: 'Session 0196a3f2'. */
export function sessionShortName(sessionId: string): string {
  return `Session ${sessionId.slice(0, 8)}`;
}

/** How much of the total is spent, 0 to 100, for a progress bar. */
export function spentPercent(spent: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.max(0, (spent / total) * 100));
}
