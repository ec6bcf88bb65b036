import { describe, expect, it } from 'vitest';
import { capAndSpent, connectionName, connectionStatus, formatDate, revokedReasonText } from './oauth-connections';

const NOW = Date.parse('2026-12-06T12:00:00Z');

describe('connectionStatus', () => {
  it('is active until it expires or is revoked, and revoked wins over expired', () => {
    expect(connectionStatus({ revokedAt: null, expiresAt: null }, NOW)).toBe('active');
    expect(connectionStatus({ revokedAt: null, expiresAt: '2026-12-07T00:00:00Z' }, NOW)).toBe('active');
    expect(connectionStatus({ revokedAt: null, expiresAt: '2026-12-06T12:00:00Z' }, NOW)).toBe('expired');
    expect(connectionStatus({ revokedAt: '2026-12-01T00:00:00Z', expiresAt: '2026-12-02T00:00:00Z' }, NOW)).toBe('revoked');
  });
});

describe('revokedReasonText', () => {
  it('says who ended a revoked connection, and nothing for a live one', () => {
    expect(revokedReasonText({ revokedAt: null, revokedReason: null })).toBeNull();
    expect(revokedReasonText({ revokedAt: '2026-12-01T00:00:00Z', revokedReason: 'owner' })).toBe('Revoked by you');
    expect(revokedReasonText({ revokedAt: '2026-12-01T00:00:00Z', revokedReason: 'refresh_token_reuse' })).toMatch(/refresh token was used twice/);
    expect(revokedReasonText({ revokedAt: '2026-12-01T00:00:00Z', revokedReason: null })).toBe('Revoked');
  });
});

describe('capAndSpent', () => {
  it('shows the spend against the cap, or that only the agent rules limit it', () => {
    expect(capAndSpent({ cap: 5, spent: 1.2 })).toBe('$1.20 spent of $5.00 cap');
    expect(capAndSpent({ cap: null, spent: 0 })).toBe("$0.00 spent (no cap: the agent's rules apply)");
  });
});

describe('formatDate and connectionName', () => {
  it('formats a UTC day and names a client by its name, else its id', () => {
    expect(formatDate('2026-12-06T23:30:00Z')).toBe('Dec 6, 2026');
    expect(formatDate('nope')).toBe('');
    expect(connectionName({ clientName: 'Claude', clientId: 'abc' })).toBe('Claude');
    expect(connectionName({ clientName: ' ', clientId: 'https://app.example/client.json' })).toBe('https://app.example/client.json');
  });
});
