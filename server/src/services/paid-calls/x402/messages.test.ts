import { describe, expect, it } from 'vitest';
import { encodePaymentRequiredHeader, encodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { recommendRequirement } from '../front/recommend-requirement';
import { decodePaymentHeader, paymentHeaderName, paymentReference } from './payment-header';
import { describeRequirement, MALFORMED_PAYMENT_REQUIRED_MESSAGE, readPaymentRequired, requirementPrice } from './payment-required';
import { paymentResponseHeaderName, readPaymentResponse } from './payment-response';

const SEPOLIA_USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const SELLER = '0x1111111111111111111111111111111111111111';
const BUYER = '0x2222222222222222222222222222222222222222';
const NONCE = `0x${'ab'.repeat(32)}`;

const v2Requirement = (overrides: Partial<PaymentRequirements>): PaymentRequirements => ({
  scheme: 'exact',
  network: 'eip155:84532',
  amount: '10000',
  asset: SEPOLIA_USDC,
  payTo: SELLER,
  maxTimeoutSeconds: 60,
  extra: { name: 'USDC', version: '2' },
  ...overrides,
});

const v2Accepts = [
  v2Requirement({ network: 'eip155:8453', asset: BASE_USDC }),
  v2Requirement({ scheme: 'upto' }),
  v2Requirement({ asset: '0x3333333333333333333333333333333333333333' }),
  // Sellers may add fields the schema does not know; they must survive to be echoed back.
  { ...v2Requirement({ asset: SEPOLIA_USDC.toLowerCase(), amount: '25000' }), vendorTag: 'kept' } as PaymentRequirements,
];

const v2PaymentRequired: PaymentRequired = {
  x402Version: 2,
  error: 'Payment required',
  resource: { url: 'https://api.example.com/weather', description: 'Weather', mimeType: 'application/json' },
  accepts: v2Accepts,
  extensions: { bazaar: { discoverable: true } },
};

const v1Body = {
  x402Version: 1,
  error: 'X-PAYMENT header is required',
  accepts: [
    {
      scheme: 'exact',
      network: 'base',
      maxAmountRequired: '5000',
      resource: 'https://api.example.com/v1',
      description: 'Mainnet',
      mimeType: 'application/json',
      payTo: SELLER,
      maxTimeoutSeconds: 300,
      asset: BASE_USDC,
      extra: { name: 'USD Coin', version: '2' },
    },
    {
      scheme: 'exact',
      network: 'base-sepolia',
      maxAmountRequired: '1500000',
      resource: 'https://api.example.com/v1',
      description: 'Testnet',
      mimeType: 'application/json',
      payTo: SELLER,
      maxTimeoutSeconds: 300,
      asset: SEPOLIA_USDC,
      extra: null,
    },
  ],
};

/** What a seller built on other code (or an older type) might send. */
const base64Json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

const status402 = (headers: Record<string, string>, body = '') => ({ status: 402, headers, body: Buffer.from(body) });

describe('readPaymentRequired', () => {
  it('ignores answers other than 402', () => {
    expect(readPaymentRequired({ status: 200, headers: { 'payment-required': 'x' }, body: Buffer.alloc(0) })).toBeNull();
  });

  it('reads v2 requirements from the PAYMENT-REQUIRED header, keeping each requirement as sent', () => {
    const info = readPaymentRequired(status402({ 'payment-required': encodePaymentRequiredHeader(v2PaymentRequired) }, '{}'));
    expect(info).toEqual({
      x402Version: 2,
      accepts: v2Accepts,
      resource: { url: 'https://api.example.com/weather', description: 'Weather', mimeType: 'application/json' },
      error: 'Payment required',
      extensions: { bazaar: { discoverable: true } },
    });
    expect(info!.accepts[3]).toHaveProperty('vendorTag', 'kept');
  });

  it('reads v1 requirements from the JSON body', () => {
    const info = readPaymentRequired(status402({ 'content-type': 'application/json' }, JSON.stringify(v1Body)));
    expect(info).toEqual({ x402Version: 1, accepts: v1Body.accepts, error: 'X-PAYMENT header is required' });
  });

  it('rejects a 402 without valid requirements', () => {
    const malformed = [
      status402({}, 'Payment required, see our pricing page'),
      status402({}, JSON.stringify({ x402Version: 1, accepts: [] })),
      status402({}, JSON.stringify({ x402Version: 3, accepts: v1Body.accepts })),
      status402({ 'payment-required': 'not base64!' }),
      status402({ 'payment-required': base64Json({ x402Version: 2 }) }),
      status402({ 'payment-required': base64Json({ ...v2PaymentRequired, accepts: [{ ...v2Requirement({}), network: 'base-sepolia' }] }) }),
    ];
    for (const response of malformed) {
      expect(() => readPaymentRequired(response)).toThrow(expect.objectContaining({ code: 'UPSTREAM_ERROR', message: MALFORMED_PAYMENT_REQUIRED_MESSAGE }));
    }
  });
});

describe('describeRequirement', () => {
  it('gives a v2 requirement its amount as a bigint', () => {
    expect(describeRequirement(v2Accepts[0]!, 2)).toEqual({
      scheme: 'exact',
      network: 'eip155:8453',
      amount: 10000n,
      asset: BASE_USDC,
      payTo: SELLER,
      maxTimeoutSeconds: 60,
      extra: { name: 'USDC', version: '2' },
    });
  });

  it('maps v1 network names to CAIP-2 and reads maxAmountRequired', () => {
    const [mainnet, sepolia] = readPaymentRequired(status402({}, JSON.stringify(v1Body)))!.accepts;
    expect(describeRequirement(mainnet!, 1)).toMatchObject({ network: 'eip155:8453', amount: 5000n, maxTimeoutSeconds: 300 });
    expect(describeRequirement(sepolia!, 1)).toEqual({
      scheme: 'exact',
      network: 'eip155:84532',
      amount: 1_500_000n,
      asset: SEPOLIA_USDC,
      payTo: SELLER,
      maxTimeoutSeconds: 300,
      extra: {},
    });
  });

  it('refuses an amount that is not a whole number of atomic units', () => {
    expect(() => describeRequirement(v2Requirement({ amount: '0.01' }), 2)).toThrow(expect.objectContaining({ code: 'X402_REFUSED' }));
  });
});

describe('requirementPrice', () => {
  it('is the field the official client signs: v1 maxAmountRequired, v2 amount', () => {
    expect(requirementPrice({ maxAmountRequired: '1500000' }, 1)).toBe(1_500_000n);
    expect(requirementPrice({ amount: '10000' }, 2)).toBe(10_000n);
    // The same price named twice is one price.
    expect(requirementPrice({ maxAmountRequired: '10000', amount: '10000' }, 1)).toBe(10_000n);
  });

  it('refuses a requirement with two prices, whichever version it claims', () => {
    expect(() => requirementPrice({ amount: '10000', maxAmountRequired: '1500000' }, 1)).toThrow(expect.objectContaining({ code: 'X402_REFUSED' }));
    expect(() => requirementPrice({ amount: '1', maxAmountRequired: '2500000' }, 2)).toThrow(expect.objectContaining({ code: 'X402_REFUSED' }));
    expect(() => requirementPrice({ amount: '10000', maxAmountRequired: 10000 }, 2)).toThrow(expect.objectContaining({ code: 'X402_REFUSED' }));
  });

  it('refuses a requirement without the price its version signs', () => {
    // A v1 client signs maxAmountRequired: an `amount` alone would be priced but not signed.
    expect(() => requirementPrice({ amount: '10000' }, 1)).toThrow(expect.objectContaining({ code: 'X402_REFUSED' }));
    expect(() => requirementPrice({ maxAmountRequired: '10000' }, 2)).toThrow(expect.objectContaining({ code: 'X402_REFUSED' }));
  });
});

describe('recommendRequirement', () => {
  it('picks the exact USDC requirement on our network, comparing addresses case-insensitively', () => {
    expect(recommendRequirement(v2Accepts, 2, 'eip155:84532', SEPOLIA_USDC)).toBe(v2Accepts[3]);
    const v1Accepts = readPaymentRequired(status402({}, JSON.stringify(v1Body)))!.accepts;
    expect(recommendRequirement(v1Accepts, 1, 'eip155:84532', SEPOLIA_USDC.toLowerCase())).toBe(v1Accepts[1]);
  });

  it('picks upto on our network when no exact requirement is offered, in v2 only', () => {
    // Another network, upto, another asset: the upto one.
    expect(recommendRequirement(v2Accepts.slice(0, 3), 2, 'eip155:84532', SEPOLIA_USDC)).toBe(v2Accepts[1]);
    const v1Upto = [{ ...v2Accepts[1]!, network: 'base-sepolia', maxAmountRequired: '10000' }] as unknown as PaymentRequirements[];
    expect(recommendRequirement(v1Upto, 1, 'eip155:84532', SEPOLIA_USDC)).toBeNull();
  });

  it('picks a batch-settlement channel only when neither exact nor upto is offered on our network, in v2 only', () => {
    const channel = v2Requirement({ scheme: 'batch-settlement', extra: { receiverAuthorizer: BUYER } });
    expect(recommendRequirement([channel, v2Accepts[1]!], 2, 'eip155:84532', SEPOLIA_USDC)).toBe(v2Accepts[1]);
    expect(recommendRequirement([channel, v2Accepts[3]!], 2, 'eip155:84532', SEPOLIA_USDC)).toBe(v2Accepts[3]);
    expect(recommendRequirement([v2Accepts[0]!, channel], 2, 'eip155:84532', SEPOLIA_USDC)).toBe(channel);
    expect(recommendRequirement([{ ...channel, network: 'base-sepolia', maxAmountRequired: '10000' }] as unknown as PaymentRequirements[], 1, 'eip155:84532', SEPOLIA_USDC)).toBeNull();
  });

  it('returns null when nothing matches our network and asset', () => {
    // Another network, another scheme, another asset.
    expect(recommendRequirement([v2Accepts[0]!, v2Requirement({ scheme: 'stream' }), v2Accepts[2]!], 2, 'eip155:84532', SEPOLIA_USDC)).toBeNull();
    expect(recommendRequirement(v2Accepts, 2, 'eip155:1', SEPOLIA_USDC)).toBeNull();
  });
});

describe('header names', () => {
  it('follows the header generation', () => {
    expect([paymentHeaderName(2), paymentResponseHeaderName(2)]).toEqual(['PAYMENT-SIGNATURE', 'PAYMENT-RESPONSE']);
    expect([paymentHeaderName(1), paymentResponseHeaderName(1)]).toEqual(['X-PAYMENT', 'X-PAYMENT-RESPONSE']);
  });
});

describe('readPaymentResponse', () => {
  const settled = { success: true, transaction: `0x${'cd'.repeat(32)}`, network: 'eip155:84532' as const, payer: BUYER };

  it('decodes a v2 PAYMENT-RESPONSE settlement', () => {
    const header = encodePaymentResponseHeader(settled);
    expect(readPaymentResponse({ 'payment-response': header })).toEqual({ ...settled, raw: settled });
  });

  it('decodes a v1 X-PAYMENT-RESPONSE failure with its network mapped', () => {
    const failed = { success: false, errorReason: 'insufficient_funds', transaction: '', network: 'base-sepolia' };
    expect(readPaymentResponse({ 'X-PAYMENT-RESPONSE': base64Json(failed) })).toEqual({
      success: false,
      errorReason: 'insufficient_funds',
      network: 'eip155:84532',
      raw: failed,
    });
  });

  it('is null when the header is absent or unreadable', () => {
    expect(readPaymentResponse({ 'content-type': 'application/json' })).toBeNull();
    expect(readPaymentResponse({ 'payment-response': '%%%' })).toBeNull();
    expect(readPaymentResponse({ 'payment-response': base64Json({ transaction: '0x1' }) })).toBeNull();
  });
});

describe('decodePaymentHeader', () => {
  const authorization = { from: BUYER, to: SELLER, value: '10000', validAfter: '0', validBefore: '1900000000', nonce: NONCE };
  const signature = `0x${'ef'.repeat(65)}`;

  it('round-trips a v2 payment and its accepted requirement', () => {
    const accepted = v2Requirement({});
    const header = encodePaymentSignatureHeader({ x402Version: 2, resource: v2PaymentRequired.resource, accepted, payload: { authorization, signature } });
    expect(decodePaymentHeader(header)).toEqual({ protocol: 'x402', x402Version: 2, scheme: 'exact', network: 'eip155:84532', accepted, payload: { authorization, signature } });
  });

  it('round-trips a v1 payment with its network mapped', () => {
    const header = base64Json({ x402Version: 1, scheme: 'exact', network: 'base-sepolia', payload: { authorization, signature } });
    expect(decodePaymentHeader(header)).toEqual({ protocol: 'x402', x402Version: 1, scheme: 'exact', network: 'eip155:84532', payload: { authorization, signature } });
  });

  it('reads an upto payment: a Permit2 witness transfer of at most its maximum', () => {
    const accepted = v2Requirement({ scheme: 'upto' });
    const permit2Authorization = {
      from: BUYER,
      permitted: { token: SEPOLIA_USDC, amount: '10000' },
      spender: '0x4020A4f3b7b90ccA423B9fabCc0CE57C6C240002',
      nonce: '123456789',
      deadline: '1900000000',
      witness: { to: SELLER, facilitator: BUYER, validAfter: '0' },
    };
    const header = encodePaymentSignatureHeader({ x402Version: 2, accepted, payload: { permit2Authorization, signature } });
    const decoded = decodePaymentHeader(header);
    expect(decoded).toEqual({ protocol: 'x402', x402Version: 2, scheme: 'upto', network: 'eip155:84532', accepted, payload: { permit2Authorization, signature } });
    expect(paymentReference(decoded)).toBe('123456789');
    // An upto payment carrying an EIP-3009 payload is neither.
    expect(() => decodePaymentHeader(encodePaymentSignatureHeader({ x402Version: 2, accepted, payload: { authorization, signature } }))).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });

  it('rejects values that are not an x402 EIP-3009 payment', () => {
    const accepted = v2Requirement({});
    for (const value of [
      'not base64!',
      base64Json({}),
      encodePaymentSignatureHeader({ x402Version: 2, accepted, payload: { signature } }),
      encodePaymentSignatureHeader({ x402Version: 2, accepted, payload: { authorization: { ...authorization, nonce: '0x12' }, signature } }),
    ]) {
      expect(() => decodePaymentHeader(value), value).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    }
  });
});
