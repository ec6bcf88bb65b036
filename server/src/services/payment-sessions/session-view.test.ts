import { describe, expect, it } from 'vitest';
import { toAgentSessionView, toSessionView, type SessionRow } from './session-view';

const now = new Date('2026-12-06T12:00:00.000Z');
const row = (change: Partial<SessionRow> = {}): SessionRow => ({
  id: '0196a2c4-1e0b-7a3c-9d5e-6f7a8b9c0d1e',
  agentId: '12c5a872-07e5-41b6-b5fc-495206295089',
  status: 'open',
  requestedBy: 'agent',
  reason: 'Datasets',
  totalUnits: 5_000_000n,
  perPaymentUnits: null,
  scope: { sellers: ['api.example.com'] },
  expiresAt: new Date('2026-12-07T12:00:00.000Z'),
  decisionNote: null,
  decidedAt: now,
  closedReason: null,
  closedAt: null,
  allPayments: false,
  reserve: false,
  reservedUnits: 0n,
  createdAt: now,
  ...change,
});

describe('toSessionView', () => {
  it('shows an open session with what it spent and what remains, in dollars and exactly', () => {
    expect(toSessionView(row(), 1_250_000n, now)).toMatchObject({ status: 'open', spent: 1.25, spentExact: '1.25', remaining: 3.75, remainingExact: '3.75', closedReason: null });
  });

  it('shows an open session past its expiry as closed (expired) at its expiry', () => {
    const expiresAt = new Date('2026-12-06T11:59:59.000Z');
    expect(toSessionView(row({ expiresAt }), 0n, now)).toMatchObject({ status: 'closed', closedReason: 'expired', closedAt: expiresAt.toISOString() });
  });

  it('shows an open session whose payments reached its total as closed (spent), with nothing remaining', () => {
    expect(toSessionView(row(), 5_000_000n, now)).toMatchObject({ status: 'closed', closedReason: 'spent', remaining: 0, remainingExact: '0' });
  });

  it('shows a request its owner left undecided past its expiry as closed (expired), never decided', () => {
    const expiresAt = new Date('2026-12-06T11:00:00.000Z');
    const view = toSessionView(row({ status: 'requested', expiresAt, decidedAt: null }), 0n, now);
    expect(view).toMatchObject({ status: 'closed', closedReason: 'expired', closedAt: expiresAt.toISOString(), decidedAt: null });
    expect(toAgentSessionView(view).message).toContain('expired before the owner decided');
    expect(toSessionView(row({ status: 'requested', decidedAt: null }), 0n, now).status).toBe('requested');
  });

  it('shows a rejection and a revoked session as stored, even past their expiry', () => {
    const past = new Date('2026-12-01T00:00:00.000Z');
    expect(toSessionView(row({ status: 'rejected', decisionNote: 'No' }), 0n, now)).toMatchObject({ status: 'rejected', decisionNote: 'No' });
    expect(toSessionView(row({ status: 'closed', closedReason: 'revoked', closedAt: past }), 0n, now)).toMatchObject({ status: 'closed', closedReason: 'revoked', closedAt: past.toISOString() });
  });

  it('tells the agent what to do next with its session', () => {
    expect(toAgentSessionView(toSessionView(row({ status: 'requested' }), 0n, now)).message).toContain('Waiting for the owner');
    expect(toAgentSessionView(toSessionView(row(), 0n, now))).toMatchObject({ session_id: row().id, total_exact: '5', message: expect.stringContaining('pass session_id') });
  });
});
