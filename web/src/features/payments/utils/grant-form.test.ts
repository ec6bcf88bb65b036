import { describe, expect, it } from 'vitest';
import { grantForm, grantInput, toLocalInput, trimZeros } from './grant-form';

const SESSION = '0196a3f2-0000-7000-8000-000000000001';
const asked = { totalExact: '5.000000', expiresAt: new Date(Date.now() + 2 * 86_400_000).toISOString() };

describe('grantInput', () => {
  it('sends the request as asked when the owner changed nothing, with the note', () => {
    const form = { ...grantForm(asked), note: ' Fine ' };
    expect(form.total).toBe('5');
    expect(grantInput(SESSION, asked, form)).toEqual({ ok: true, input: { note: 'Fine' } });
  });

  it('sends a lower total and a sooner expiry', () => {
    const sooner = new Date(Date.now() + 86_400_000).toISOString();
    const result = grantInput(SESSION, asked, { total: '3', expiresAt: toLocalInput(sooner), note: '', allPayments: false, reserve: false });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.input.totalUsd).toBe('3');
    expect(Math.abs(Date.parse(result.input.expiresAt!) - Date.parse(sooner))).toBeLessThan(60_000);
  });

  it('sends the two options only when they are ticked', () => {
    expect(grantInput(SESSION, asked, { ...grantForm(asked), allPayments: true, reserve: true })).toEqual({ ok: true, input: { allPayments: true, reserve: true } });
  });

  it('refuses more than asked, later than asked, and what the contract refuses', () => {
    const later = new Date(Date.parse(asked.expiresAt) + 86_400_000).toISOString();
    expect(grantInput(SESSION, asked, { total: '7', expiresAt: toLocalInput(later), note: '', allPayments: false, reserve: false })).toEqual({
      ok: false,
      errors: { total: 'At most the $5 asked for', expiresAt: 'No later than the request asked' },
    });
    const bad = grantInput(SESSION, asked, { total: '-1', expiresAt: grantForm(asked).expiresAt, note: '', allPayments: false, reserve: false });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors.total).toMatch(/^The total must be a positive number of dollars/);
    expect(grantInput(SESSION, asked, { total: '', expiresAt: '', note: '', allPayments: false, reserve: false })).toEqual({ ok: false, errors: { total: 'Enter the total to grant', expiresAt: 'Enter when the session ends' } });
  });
});

describe('trimZeros', () => {
  it('drops trailing zeros of the decimals', () => {
    expect(trimZeros('5.000000')).toBe('5');
    expect(trimZeros('2.500000')).toBe('2.5');
    expect(trimZeros('10')).toBe('10');
  });
});
