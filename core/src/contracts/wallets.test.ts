import { describe, expect, it } from 'vitest';
import { FUND_AGENT_MESSAGE, fundAgentInput, TOP_UP_AMOUNT_MESSAGE, topUpWalletInput } from './wallets';

const AGENT_ID = '0190d4a5-6b1c-7a2e-8f00-0123456789ab';

function firstMessage(result: { success: boolean; error?: { issues: { message: string }[] } }): string | undefined {
  return result.success ? undefined : result.error?.issues[0]?.message;
}

describe('top-up input', () => {
  it('reads dollars from numbers and decimal strings into atomic units, USDC by default', () => {
    expect(topUpWalletInput.parse({ amount: 10 })).toEqual({ amount: 10_000_000n, currency: 'USDC' });
    expect(topUpWalletInput.parse({ amount: '0.000001', currency: 'USDT' })).toEqual({ amount: 1n, currency: 'USDT' });
    expect(topUpWalletInput.parse({ amount: 0.1, idempotency_key: 'k-1' })).toEqual({ amount: 100_000n, currency: 'USDC', idempotency_key: 'k-1' });
  });

  it("refuses a missing, zero, negative, non-finite or over-precise amount with 'Please enter a valid amount'", () => {
    for (const amount of [undefined, null, 0, '0', -1, '-0.01', Number.NaN, Infinity, '1.0000001', 0.0000001, 'ten', '', true, '1e3']) {
      expect(firstMessage(topUpWalletInput.safeParse({ amount })), String(amount)).toBe(TOP_UP_AMOUNT_MESSAGE);
    }
  });

  it('accepts only USDC and USDT', () => {
    expect(firstMessage(topUpWalletInput.safeParse({ amount: 1, currency: 'EUR' }))).toBe('Currency must be USDC or USDT');
    expect(firstMessage(topUpWalletInput.safeParse({ amount: 1, currency: 'usdc' }))).toBe('Currency must be USDC or USDT');
  });

  it('refuses an idempotency key that is empty, too long or not printable ASCII', () => {
    for (const key of ['', 'a b', 'x'.repeat(256), 'é']) {
      expect(topUpWalletInput.safeParse({ amount: 1, idempotency_key: key }).success, key).toBe(false);
    }
    expect(topUpWalletInput.safeParse({ amount: 1, idempotency_key: 'x'.repeat(255) }).success).toBe(true);
  });
});

describe('fund-agent input', () => {
  it('reads the agent, the amount in atomic units and the currency', () => {
    expect(fundAgentInput.parse({ agent_id: AGENT_ID, amount: '2.5', currency: 'USDT' })).toEqual({ agent_id: AGENT_ID, amount: 2_500_000n, currency: 'USDT' });
  });

  it("refuses a missing or invalid agent or amount with 'Please select an agent and enter a valid amount'", () => {
    for (const body of [
      {},
      { amount: 1 },
      { agent_id: '', amount: 1 },
      { agent_id: 'agent-1', amount: 1 },
      { agent_id: AGENT_ID },
      { agent_id: AGENT_ID, amount: 0 },
      { agent_id: AGENT_ID, amount: -3 },
      { agent_id: AGENT_ID, amount: '1.1234567' },
    ]) {
      expect(firstMessage(fundAgentInput.safeParse(body)), JSON.stringify(body)).toBe(FUND_AGENT_MESSAGE);
    }
  });
});
