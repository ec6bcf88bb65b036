import { describe, expect, it } from 'vitest';
import { EMPTY_OPEN_SESSION_FORM, localInputIn, openSessionInput, splitList } from './open-session-form';

const AGENT = '0196a3f2-0000-7000-8000-000000000001';
const tomorrow = () => localInputIn(1);

describe('openSessionInput', () => {
  it('turns the fields into the procedure input, scope lists split and empty ones left out', () => {
    const result = openSessionInput(AGENT, { ...EMPTY_OPEN_SESSION_FORM, total: '25', perPaymentMax: '2.5', expiresAt: tomorrow(), sellers: 'api.example.com, data.example.com', rails: 'x402-base' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.input).toMatchObject({ agentId: AGENT, totalUsd: '25', perPaymentMaxUsd: '2.5', scope: { sellers: ['api.example.com', 'data.example.com'], rails: ['x402-base'] } });
    expect(result.input.scope).not.toHaveProperty('categories');
    expect(result.input).not.toHaveProperty('allPayments');
    expect(result.input).not.toHaveProperty('reserve');
  });

  it('sends the two options only when they are ticked', () => {
    const result = openSessionInput(AGENT, { ...EMPTY_OPEN_SESSION_FORM, total: '5', expiresAt: tomorrow(), allPayments: true, reserve: true });
    expect(result).toMatchObject({ ok: true, input: { allPayments: true, reserve: true } });
  });

  it("shows the contract's messages under the fields they are about", () => {
    const result = openSessionInput(AGENT, { ...EMPTY_OPEN_SESSION_FORM, total: '0', perPaymentMax: 'abc', expiresAt: localInputIn(40), sellers: 'not a host!', protocols: 'carrier-pigeon' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.total).toMatch(/^The total must be a positive number of dollars/);
    expect(result.errors.perPaymentMax).toMatch(/^The cap per payment must be a positive number/);
    expect(result.errors.expiresAt).toMatch(/at most 30 days away/);
    expect(result.errors.sellers).toMatch(/^Each seller must be a host name/);
    expect(result.errors.protocols).toMatch(/^Each protocol must be one of/);
  });

  it('asks for the total and the expiry when they are empty, and refuses a past expiry', () => {
    const empty = openSessionInput(AGENT, EMPTY_OPEN_SESSION_FORM);
    expect(empty).toEqual({ ok: false, errors: expect.objectContaining({ total: 'Enter the total the agent may spend', expiresAt: 'Enter when the session ends' }) });
    const past = openSessionInput(AGENT, { ...EMPTY_OPEN_SESSION_FORM, total: '5', expiresAt: localInputIn(-1) });
    expect(past.ok).toBe(false);
  });
});

describe('splitList', () => {
  it('drops blanks around and between commas', () => {
    expect(splitList(' a.com, ,b.com ,')).toEqual(['a.com', 'b.com']);
  });
});
