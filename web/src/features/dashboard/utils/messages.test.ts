import { describe, expect, it } from 'vitest';
import { errorMessage, positiveAmount } from './messages';

/** What the tRPC client throws: `data` is set only when the server answered. */
function clientError(message: string, data?: object) {
  return Object.assign(new Error(message), { data });
}

describe('errorMessage', () => {
  it("shows the server's message when the server answered", () => {
    expect(errorMessage(clientError('Insufficient USDT balance', { code: 'UNPROCESSABLE_CONTENT' }), 'Failed to fund agent')).toBe('Insufficient USDT balance');
  });

  it("shows the action's fallback when no answer came back", () => {
    expect(errorMessage(clientError('Failed to fetch'), 'Failed to top up wallet')).toBe('Failed to top up wallet');
    expect(errorMessage(new TypeError('Failed to fetch'), 'Failed to top up wallet')).toBe('Failed to top up wallet');
    expect(errorMessage('boom', 'Failed to create agent')).toBe('Failed to create agent');
  });

  it('shows the fallback for an empty server message', () => {
    expect(errorMessage(clientError('  ', { code: 'INTERNAL_SERVER_ERROR' }), 'Failed to create agent')).toBe('Failed to create agent');
  });
});

describe('positiveAmount', () => {
  it('reads numbers above zero', () => {
    expect(positiveAmount('12.50')).toBe(12.5);
  });

  it('refuses blanks, zero, negatives and text', () => {
    expect(['', '  ', '0', '-1', 'abc', 'Infinity'].map(positiveAmount)).toEqual([null, null, null, null, null, null]);
  });
});
