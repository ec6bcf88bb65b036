import { describe, expect, it } from 'vitest';
import { scopeText, sessionShortName, sessionStatusLabel, spentPercent } from './session-text';

describe('scopeText', () => {
  it('names each list the scope narrows, and says when it narrows nothing', () => {
    expect(scopeText({ sellers: ['api.example.com', 'data.example.com'], rails: ['x402-base'] })).toBe('Sellers api.example.com, data.example.com · Rails x402-base');
    expect(scopeText({})).toBe('Any seller, category, protocol and rail');
    expect(scopeText({ categories: [] })).toBe('Any seller, category, protocol and rail');
  });
});

describe('sessionStatusLabel', () => {
  it('says why a closed session closed', () => {
    expect(sessionStatusLabel('closed', 'spent')).toBe('Closed: all spent');
    expect(sessionStatusLabel('closed', 'revoked')).toBe('Closed: revoked');
    expect(sessionStatusLabel('requested', null)).toBe('Waiting for you');
  });
});

describe('spentPercent', () => {
  it('stays within 0 and 100', () => {
    expect(spentPercent(3, 3)).toBe(100);
    expect(spentPercent(1, 4)).toBe(25);
    expect(spentPercent(5, 4)).toBe(100);
    expect(spentPercent(0, 0)).toBe(0);
  });
});

describe('sessionShortName', () => {
  it('keeps the first eight characters of the id', () => {
    expect(sessionShortName('0196a3f2-0000-7000-8000-000000000000')).toBe('Session 0196a3f2');
  });
});
