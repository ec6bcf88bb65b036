import { describe, expect, it } from 'vitest';
import { AGENT_NAME_MESSAGE, createAgentInput, updateSpendingRulesInput } from './agents';

const AGENT_ID = '0195f3c2-7d1e-7a4b-9c2d-1e2f3a4b5c6d';

function firstMessage(result: { success: boolean; error?: { issues: { message: string }[] } }): string | undefined {
  return result.error?.issues[0]?.message;
}

describe('createAgentInput', () => {
  it('defaults the limits to 100 and 1000 dollars in atomic units and the description to empty', () => {
    expect(createAgentInput.parse({ name: '  Shopper  ' })).toEqual({
      name: 'Shopper',
      description: '',
      max_transaction_amount: 100_000_000n,
      max_daily_limit: 1_000_000_000n,
    });
  });

  it('asks for an agent name when the name is missing or blank after trimming', () => {
    for (const body of [{}, { name: '' }, { name: '   \t' }]) {
      expect(firstMessage(createAgentInput.safeParse(body))).toBe(AGENT_NAME_MESSAGE);
    }
  });

  it('accepts zero, numbers and decimal strings with up to 6 decimals', () => {
    const parsed = createAgentInput.parse({ name: 'a', max_transaction_amount: 0, max_daily_limit: '12.345678' });
    expect(parsed.max_transaction_amount).toBe(0n);
    expect(parsed.max_daily_limit).toBe(12_345_678n);
  });

  it('refuses negative limits, more than 6 decimals, NaN and Infinity with the field named', () => {
    expect(firstMessage(createAgentInput.safeParse({ name: 'a', max_transaction_amount: -1 }))).toBe(
      'Max transaction amount must not be negative',
    );
    expect(firstMessage(createAgentInput.safeParse({ name: 'a', max_daily_limit: 0.0000001 }))).toBe(
      'Max daily limit must have at most 6 decimals',
    );
    expect(createAgentInput.safeParse({ name: 'a', max_daily_limit: Number.NaN }).success).toBe(false);
    expect(createAgentInput.safeParse({ name: 'a', max_daily_limit: Number.POSITIVE_INFINITY }).success).toBe(false);
  });
});

describe('updateSpendingRulesInput', () => {
  it('changes only the limits it names', () => {
    expect(updateSpendingRulesInput.parse({ agent_id: AGENT_ID, max_daily_limit: 50 })).toEqual({
      agent_id: AGENT_ID,
      max_daily_limit: 50_000_000n,
    });
  });

  it('needs at least one limit and an agent id that is a UUID', () => {
    expect(firstMessage(updateSpendingRulesInput.safeParse({ agent_id: AGENT_ID }))).toBe('Give at least one spending limit to change');
    expect(updateSpendingRulesInput.safeParse({ agent_id: 'nope', max_daily_limit: 1 }).success).toBe(false);
  });
});
