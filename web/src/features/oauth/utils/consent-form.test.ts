import { describe, expect, it } from 'vitest';
import { approveOAuthRequestInput } from '@purser/core';
import { consentInput, expiryDate, initialConsentForm, isLoopbackRedirect, problemOfStatus, redirectHost, toggleScope, type ConsentForm } from './consent-form';

const AGENT = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const OTHER = '7a1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const NOW = new Date('2026-12-06T12:00:00.000Z');

function form(overrides: Partial<ConsentForm> = {}): ConsentForm {
  return { agentId: AGENT, scopes: ['read', 'pay'], cap: '', expiry: 'never', ...overrides };
}

describe('initialConsentForm', () => {
  it('ticks every requested scope, sets no cap and no expiry', () => {
    expect(initialConsentForm({ scopes: ['read', 'fetch'] }, [])).toEqual({ agentId: '', scopes: ['read', 'fetch'], cap: '', expiry: 'never' });
  });

  it('preselects the only active agent, and none when the owner must choose', () => {
    expect(initialConsentForm({ scopes: ['read'] }, [{ id: AGENT, status: 'active' }, { id: OTHER, status: 'suspended' }]).agentId).toBe(AGENT);
    expect(initialConsentForm({ scopes: ['read'] }, [{ id: AGENT, status: 'active' }, { id: OTHER, status: 'active' }]).agentId).toBe('');
  });
});

describe('toggleScope', () => {
  it("unticks and ticks a scope, keeping the request's order", () => {
    expect(toggleScope(['read', 'pay', 'fetch'], ['read', 'pay', 'fetch'], 'pay', false)).toEqual(['read', 'fetch']);
    expect(toggleScope(['read', 'pay', 'fetch'], ['fetch'], 'read', true)).toEqual(['read', 'fetch']);
  });
});

describe('expiryDate', () => {
  it('counts 7, 30 and 90 days from now; never is none', () => {
    expect(expiryDate('7', NOW)?.toISOString()).toBe('2026-12-13T12:00:00.000Z');
    expect(expiryDate('30', NOW)?.toISOString()).toBe('2027-01-05T12:00:00.000Z');
    expect(expiryDate('90', NOW)?.toISOString()).toBe('2027-03-06T12:00:00.000Z');
    expect(expiryDate('never', NOW)).toBeNull();
  });
});

describe('consentInput', () => {
  it('sends the agent and the ticked scopes, and no cap or expiry when none is chosen', () => {
    expect(consentInput('req-1', form(), NOW)).toEqual({ ok: true, input: { requestId: 'req-1', agentId: AGENT, scopes: ['read', 'pay'] } });
  });

  it("sends a cap in dollars and an expiry the server's schema accepts", () => {
    const result = consentInput('req-1', form({ cap: ' 5 ', expiry: '30' }), NOW);
    expect(result).toEqual({ ok: true, input: { requestId: 'req-1', agentId: AGENT, scopes: ['read', 'pay'], capUsd: '5', expiresAt: '2027-01-05T12:00:00.000Z' } });
    if (!result.ok) throw new Error('unreachable');
    expect(approveOAuthRequestInput.parse(result.input)).toMatchObject({ capUnits: 5_000_000n, expiresAt: new Date('2027-01-05T12:00:00.000Z') });
  });

  it('asks for an agent and a scope, and refuses a cap that is not a positive dollar amount', () => {
    expect(consentInput('req-1', form({ agentId: '', scopes: [], cap: 'abc' }), NOW)).toEqual({
      ok: false,
      errors: {
        agentId: 'Choose one of your agents',
        scopes: 'Choose at least one scope',
        cap: 'The spending cap must be a positive number of dollars with at most 6 decimals',
      },
    });
    expect(consentInput('req-1', form({ cap: '1.1234567' }), NOW)).toMatchObject({ ok: false, errors: { cap: expect.stringMatching(/at most 6 decimals/) } });
    expect(consentInput('req-1', form({ cap: '0' }), NOW)).toMatchObject({ ok: false, errors: { cap: expect.stringMatching(/spending cap must be/) } });
  });
});

describe('redirectHost', () => {
  it('shows the host and port the browser returns to, or the URI as it is when it is no URL', () => {
    expect(redirectHost('https://claude.ai/api/mcp/auth_callback')).toBe('claude.ai');
    expect(redirectHost('http://127.0.0.1:33418/callback')).toBe('127.0.0.1:33418');
    expect(redirectHost('not a url')).toBe('not a url');
  });

  it('tells a loopback redirect from one on the internet', () => {
    expect(isLoopbackRedirect('http://127.0.0.1:33418/callback')).toBe(true);
    expect(isLoopbackRedirect('http://localhost:3000/cb')).toBe(true);
    expect(isLoopbackRedirect('http://[::1]:3000/cb')).toBe(true);
    expect(isLoopbackRedirect('https://127.0.0.1.evil.example/cb')).toBe(false);
  });
});

describe('problemOfStatus', () => {
  it('has nothing to say of a pending request and names the rest', () => {
    expect(problemOfStatus('pending')).toBeNull();
    expect(problemOfStatus('expired')).toBe('expired');
    expect(problemOfStatus('approved')).toBe('approved');
    expect(problemOfStatus('denied')).toBe('denied');
  });
});
