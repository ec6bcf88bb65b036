import { describe, expect, it } from 'vitest';
import { encodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { createSIWxPayload, parseSIWxHeader, SIGN_IN_WITH_X, verifySIWxSignature } from '@x402/extensions/sign-in-with-x';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { MALFORMED_PAYMENT_REQUIRED_MESSAGE, readPaymentRequired } from './payment-required';
import { readSignInChallenge, signInHeader } from './sign-in-with-x';

const challenge = {
  info: { domain: 'api.example.com', uri: 'https://api.example.com/account', version: '1', nonce: 'a1b2c3d4e5f60718', issuedAt: new Date().toISOString() },
  supportedChains: [{ chainId: 'eip155:84532', type: 'eip191' }],
};

/** A 402 as a seller's x402 middleware sends it; the package's encoder takes it as it is. */
function status402(message: Record<string, unknown>) {
  return { status: 402, headers: { 'payment-required': encodePaymentRequiredHeader(message as unknown as PaymentRequired) }, body: Buffer.from('{}') };
}

const signInOnly = {
  x402Version: 2,
  resource: { url: 'https://api.example.com/account', description: 'Account', mimeType: 'application/json' },
  accepts: [],
  extensions: { [SIGN_IN_WITH_X]: challenge },
};

describe('reading a sign-in challenge', () => {
  it('reads an auth-only 402 (nothing to pay, a sign-in asked) with its challenge', () => {
    const info = readPaymentRequired(status402(signInOnly));
    expect(info).toMatchObject({ x402Version: 2, accepts: [], extensions: { [SIGN_IN_WITH_X]: challenge } });
    expect(readSignInChallenge(info!.extensions)).toEqual(challenge);
  });

  it('still refuses a 402 that asks for nothing, or for a sign-in it does not describe', () => {
    const malformed = [
      { ...signInOnly, extensions: {} },
      { ...signInOnly, extensions: { [SIGN_IN_WITH_X]: { info: { domain: 'api.example.com' }, supportedChains: [] } } },
      { ...signInOnly, x402Version: 1 },
    ];
    for (const message of malformed) {
      expect(() => readPaymentRequired(status402(message))).toThrow(expect.objectContaining({ code: 'UPSTREAM_ERROR', message: MALFORMED_PAYMENT_REQUIRED_MESSAGE }));
    }
  });

  it('finds no challenge in a 402 that declares none or a malformed one', () => {
    expect(readSignInChallenge(undefined)).toBeNull();
    expect(readSignInChallenge({ bazaar: {} })).toBeNull();
    expect(readSignInChallenge({ [SIGN_IN_WITH_X]: { ...challenge, supportedChains: [] } })).toBeNull();
  });

  it("writes the proof in the header the package's server reads and verifies", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const payload = await createSIWxPayload({ ...challenge.info, chainId: 'eip155:84532', type: 'eip191' }, account, 'https://api.example.com/account');
    const header = signInHeader(payload);
    expect(Object.keys(header)).toEqual([SIGN_IN_WITH_X]);
    const read = parseSIWxHeader(header[SIGN_IN_WITH_X]!);
    expect(await verifySIWxSignature(read)).toEqual({ isValid: true, payer: account.address });
  });
});
