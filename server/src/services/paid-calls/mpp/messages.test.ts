import { Challenge, Expires, Receipt, evm } from 'mppx';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { decodePaymentHeader, headerNameOf, paymentReference } from '../x402/payment-header';
import { chargeRequirement } from './charge-requirement';
import { chargeNonce, readChargeOffers, readPaymentChallenges, type MppChallenge } from './payment-challenge';
import { isMppCredential, signChargeCredential } from './payment-credential';
import { readPaymentReceipt } from './payment-receipt';

const USDC = getAddress('0x036CbD53842c5426634e7929541eC2318f3dCF7e');
const SELLER = getAddress('0x1111111111111111111111111111111111111111');
const CHAIN_ID = 84532;
const DOMAIN = { name: 'USDC', version: '2', chainId: CHAIN_ID, currency: USDC };

/** A challenge as an mppx seller writes it (its id the HMAC of the rest under the seller's key). */
function challenge(request: Record<string, unknown> = {}, parameters: { expires?: string | null; method?: string } = {}): MppChallenge {
  return Challenge.fromMethod(evm.charge, {
    realm: 'seller.test',
    secretKey: 'a-seller-secret-of-at-least-32-bytes!!',
    ...(parameters.expires === null ? {} : { expires: parameters.expires ?? Expires.minutes(5) }),
    request: { amount: '0.01', chainId: CHAIN_ID, currency: USDC, decimals: 6, recipient: SELLER, description: 'Weather', ...request },
  } as never) as MppChallenge;
}

function as402(...challenges: MppChallenge[]) {
  return { status: 402, headers: { 'WWW-Authenticate': challenges.map((one) => Challenge.serialize(one)).join(', ') } };
}

describe('MPP challenges', () => {
  it('reads every Payment challenge of a 402, an EVM charge as an exact requirement', () => {
    const charge = challenge();
    const other = { ...challenge(), method: 'tempo' } as MppChallenge;
    const read = readPaymentChallenges(as402(charge, other));
    expect(read.map(({ method }) => method)).toEqual(['evm', 'tempo']);
    const offers = readChargeOffers(read);
    expect(offers).toHaveLength(1);
    const requirement = chargeRequirement(offers[0]!);
    expect(requirement).toMatchObject({ scheme: 'exact', network: 'eip155:84532', asset: USDC, amount: '10000', payTo: SELLER, description: 'Weather' });
    expect(requirement.maxTimeoutSeconds).toBeGreaterThan(290);
    expect(requirement.maxTimeoutSeconds).toBeLessThanOrEqual(300);
  });

  it('reads nothing from an answer that is not a 402, or a WWW-Authenticate of another scheme', () => {
    expect(readPaymentChallenges({ status: 200, headers: { 'www-authenticate': Challenge.serialize(challenge()) } })).toEqual([]);
    expect(readPaymentChallenges({ status: 402, headers: { 'www-authenticate': 'Bearer realm="api"' } })).toEqual([]);
    expect(readPaymentChallenges({ status: 402, headers: { 'www-authenticate': 'Payment id="x", request="not base64url json"' } })).toEqual([]);
  });

  it('refuses a charge with no expiry, an expired one, splits, or no authorization credential', () => {
    const refusal = (request: Record<string, unknown>, parameters: { expires?: string | null } = {}) => () => chargeRequirement(readChargeOffers([challenge(request, parameters)])[0]!);
    expect(refusal({}, { expires: null })).toThrow(/no expiry/);
    expect(refusal({}, { expires: new Date(Date.now() - 1000).toISOString() })).toThrow(/expired/);
    expect(refusal({ splits: [{ amount: '1', recipient: SELLER }] })).toThrow(/splits the payment/);
    // A seller's own method may name credential types mppx's EVM method does not make.
    const offered = challenge();
    const request = offered.request as { methodDetails: Record<string, unknown> };
    const transactionOnly = { ...offered, request: { ...request, methodDetails: { ...request.methodDetails, credentialTypes: ['transaction'] } } };
    expect(() => chargeRequirement(readChargeOffers([transactionOnly])[0]!)).toThrow(expect.objectContaining({ code: 'X402_REFUSED', message: expect.stringContaining('accepts only transaction') }));
  });
});

describe('MPP credentials', () => {
  it('signs a challenge with mppx’s EVM client, and reads it back as an exact authorisation bound to the challenge', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const offered = challenge();
    const credential = await signChargeCredential(account, offered, DOMAIN);
    expect(isMppCredential(credential)).toBe(true);
    const decoded = decodePaymentHeader(credential);
    expect(decoded).toMatchObject({
      protocol: 'mpp',
      x402Version: 2,
      scheme: 'exact',
      network: 'eip155:84532',
      accepted: { scheme: 'exact', asset: USDC, payTo: SELLER, amount: '10000' },
      payload: { authorization: { from: account.address, to: SELLER, value: '10000', validAfter: '0', validBefore: String(Math.floor(Date.parse(offered.expires!) / 1000)) } },
    });
    // One authorisation per challenge: its nonce is the challenge's hash.
    expect(paymentReference(decoded)).toBe(chargeNonce(offered));
    expect(headerNameOf(decoded)).toBe('Authorization');
  });

  it('signs nothing for a challenge on another chain or in another currency', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await expect(signChargeCredential(account, challenge({ chainId: 1 }), DOMAIN)).rejects.toThrow(/chain ID is not allowed/);
    await expect(signChargeCredential(account, challenge({ currency: SELLER }), DOMAIN)).rejects.toThrow(/currency is not allowed/);
  });

  it('refuses a credential that is not an EVM charge authorisation', () => {
    expect(() => decodePaymentHeader('Payment bm90IGpzb24')).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });
});

describe('MPP receipts', () => {
  it('reads a Payment-Receipt, and nothing from one that cannot be read', () => {
    const receipt = Receipt.from({ method: 'evm', reference: `0x${'ab'.repeat(32)}`, status: 'success', timestamp: '2026-12-06T00:00:00.000Z' });
    expect(readPaymentReceipt({ 'payment-receipt': Receipt.serialize(receipt) })).toEqual({ method: 'evm', reference: receipt.reference, status: 'success', timestamp: receipt.timestamp });
    expect(readPaymentReceipt({ 'Payment-Receipt': 'garbage' })).toBeNull();
    expect(readPaymentReceipt({})).toBeNull();
  });
});
