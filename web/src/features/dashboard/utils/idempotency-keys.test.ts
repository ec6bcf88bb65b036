import { describe, expect, it } from 'vitest';
import { createIdempotencyKeys, randomKey } from './idempotency-keys';

function counter() {
  let next = 0;
  return () => `key-${(next += 1)}`;
}

describe('idempotency keys of a money-moving dialog', () => {
  it('reuses the key when the same request is sent again before it succeeded', () => {
    const keys = createIdempotencyKeys(counter());
    const first = keys.keyFor({ amount: 25, currency: 'USDC' });
    expect(keys.keyFor({ amount: 25, currency: 'USDC' })).toBe(first);
    expect(keys.keyFor({ currency: 'USDC', amount: 25 })).toBe(first);
  });

  it('gives a changed request a new key', () => {
    const keys = createIdempotencyKeys(counter());
    const first = keys.keyFor({ amount: 25, currency: 'USDC' });
    expect(keys.keyFor({ amount: 26, currency: 'USDC' })).not.toBe(first);
    expect(keys.keyFor({ amount: 26, currency: 'USDT' })).not.toBe(keys.keyFor({ amount: 26, currency: 'USDC' }));
  });

  it('does not return to an old key when the request changes back', () => {
    const keys = createIdempotencyKeys(counter());
    const first = keys.keyFor({ amount: 25, currency: 'USDC' });
    keys.keyFor({ amount: 30, currency: 'USDC' });
    expect(keys.keyFor({ amount: 25, currency: 'USDC' })).not.toBe(first);
  });

  it('retires the key after a success, so the same request again is a new one', () => {
    const keys = createIdempotencyKeys(counter());
    const first = keys.keyFor({ agent_id: 'a', amount: 5, currency: 'USDC' });
    keys.succeeded();
    expect(keys.keyFor({ agent_id: 'a', amount: 5, currency: 'USDC' })).not.toBe(first);
  });

  it('starts over when the dialog is opened anew', () => {
    const keys = createIdempotencyKeys(counter());
    const first = keys.keyFor({ amount: 25, currency: 'USDC' });
    keys.reset();
    expect(keys.keyFor({ amount: 25, currency: 'USDC' })).not.toBe(first);
  });
});

describe('randomKey', () => {
  it('makes distinct version-4 UUIDs', () => {
    const made = new Set(Array.from({ length: 100 }, randomKey));
    expect(made.size).toBe(100);
    for (const key of made) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
