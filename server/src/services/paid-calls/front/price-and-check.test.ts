import { decodePaymentSignatureHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload } from '@x402/core/types';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import type { EvmNetworkInfo } from '../../chain/evm-chain';
import { DEFAULT_X402_MAX_VALIDITY_SECONDS } from '../schemes/chain-clock';
import { MAX_CHANNEL_WITHDRAW_DELAY_S } from '../schemes/batch-settlement/batch-settlement-scheme';
import type { AuthorizationTerms } from '../schemes/payment-scheme';
import { exactPayload } from '../x402/payment-header';
import { priceRequirement } from './price-requirement';
import { assertSignedAsPriced, signX402Authorization } from './signed-headers';

const USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const SELLER = '0x1111111111111111111111111111111111111111';
const chain: EvmNetworkInfo = {
  network: 'eip155:84532',
  v1Name: 'base-sepolia',
  displayName: 'Base Sepolia',
  chainId: 84532,
  sandbox: true,
  usdcAddress: USDC,
  explorerUrl: null,
  faucetUrl: null,
};
const domain = { name: 'USDC', version: '2', chainId: 84532, verifyingContract: USDC } as const;
const agent = privateKeyToAccount(generatePrivateKey());

const v2 = (overrides: Record<string, unknown> = {}) => ({
  scheme: 'exact',
  network: 'eip155:84532',
  amount: '10000',
  asset: USDC,
  payTo: SELLER,
  maxTimeoutSeconds: 60,
  extra: { name: 'USDC', version: '2' },
  ...overrides,
});
const v1 = (overrides: Record<string, unknown> = {}) => ({
  scheme: 'exact',
  network: 'base-sepolia',
  maxAmountRequired: '10000',
  asset: USDC,
  payTo: SELLER,
  resource: 'https://seller.example/weather',
  description: 'weather',
  mimeType: 'application/json',
  maxTimeoutSeconds: 60,
  extra: { name: 'USDC', version: '2' },
  ...overrides,
});

const now = () => Math.floor(Date.now() / 1000);

async function signed(requirement: Record<string, unknown>, version: 1 | 2) {
  const priced = priceRequirement(requirement, version, chain, DEFAULT_X402_MAX_VALIDITY_SECONDS);
  const header = await signX402Authorization({ account: agent, requirement, priced, domain });
  const terms: AuthorizationTerms = { ...priced, from: agent.address, latestValidBefore: BigInt(now() + priced.validitySeconds) };
  return { header, priced, terms };
}

function tampered(header: string, change: (payment: PaymentPayload) => void): string {
  const payment = decodePaymentSignatureHeader(header);
  change(payment);
  return encodePaymentSignatureHeader(payment);
}

describe('priceRequirement', () => {
  it('prices an exact EIP-3009 USDC requirement once, with a window no longer than the maximum', () => {
    expect(priceRequirement(v2({ maxTimeoutSeconds: 1_000_000_000 }), 2, chain, 300)).toMatchObject({ amount: 10_000n, validitySeconds: 300, payTo: SELLER });
    expect(priceRequirement(v2({ maxTimeoutSeconds: 30 }), 2, chain, 300)).toMatchObject({ validitySeconds: 30 });
    expect(priceRequirement(v1(), 1, chain, 300)).toMatchObject({ amount: 10_000n, network: 'eip155:84532' });
  });

  it('refuses what it cannot price exactly: other schemes, other transfer methods, two prices, no window', () => {
    const refusals: [Record<string, unknown>, 1 | 2][] = [
      [v2({ scheme: 'upto' }), 2],
      [v2({ extra: { name: 'USDC', version: '2', assetTransferMethod: 'permit2' } }), 2],
      [v2({ maxAmountRequired: '1500000' }), 2],
      [v1({ amount: '10000', maxAmountRequired: '1500000' }), 1],
      [v2({ amount: '0' }), 2],
      [v2({ payTo: 'somebody' }), 2],
      [v2({ maxTimeoutSeconds: -5 }), 2],
      [v2({ maxTimeoutSeconds: '60' }), 2],
    ];
    for (const [requirement, version] of refusals) {
      expect(() => priceRequirement(requirement, version, chain, 300), JSON.stringify(requirement)).toThrow(expect.objectContaining({ code: 'X402_REFUSED' }));
    }
  });

  it('refuses another network or asset as a rail this deployment does not have', () => {
    expect(() => priceRequirement(v2({ network: 'eip155:8453' }), 2, chain, 300)).toThrow(expect.objectContaining({ code: 'RAIL_UNAVAILABLE' }));
    expect(() => priceRequirement(v2({ asset: SELLER }), 2, chain, 300)).toThrow(expect.objectContaining({ code: 'RAIL_UNAVAILABLE' }));
  });
});

describe('signX402Authorization and assertSignedAsPriced', () => {
  it('signs exactly the price, to the payee, within Purser\'s window, and echoes the seller\'s v2 requirement untouched', async () => {
    const requirement = v2({ maxTimeoutSeconds: 1_000_000_000, extra: { name: 'Not USDC', version: '9' } });
    const before = now();
    const { header, terms } = await signed(requirement, 2);
    const decoded = await assertSignedAsPriced(header, terms, domain);
    expect(exactPayload(decoded).authorization).toMatchObject({ from: agent.address, to: SELLER, value: '10000' });
    expect(Number(exactPayload(decoded).authorization.validBefore)).toBeLessThanOrEqual(now() + 300);
    expect(Number(exactPayload(decoded).authorization.validBefore)).toBeGreaterThanOrEqual(before + 300);
    // The seller matches its requirement field by field: the echo is what it offered.
    expect(decoded.accepted).toEqual(requirement);
  });

  it('signs a v1 requirement\'s maxAmountRequired with the same checks', async () => {
    const { header, terms } = await signed(v1({ maxTimeoutSeconds: 86_400 }), 1);
    const decoded = await assertSignedAsPriced(header, terms, domain);
    expect(decoded).toMatchObject({ x402Version: 1, network: 'eip155:84532' });
    expect(exactPayload(decoded).authorization.value).toBe('10000');
    expect(Number(exactPayload(decoded).authorization.validBefore)).toBeLessThanOrEqual(now() + 300);
  });

  it('refuses a header whose terms differ from the intent\'s in any way', async () => {
    const { header, terms } = await signed(v2(), 2);
    const differing: Partial<AuthorizationTerms>[] = [
      { amount: 9_999n },
      { payTo: '0x2222222222222222222222222222222222222222' },
      { from: privateKeyToAccount(generatePrivateKey()).address },
      { network: 'eip155:8453' },
      { asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
      { x402Version: 1 },
      { latestValidBefore: BigInt(now() + 10) },
    ];
    for (const change of differing) {
      await expect(assertSignedAsPriced(header, { ...terms, ...change }, domain), JSON.stringify(change, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).rejects.toMatchObject({ code: 'X402_REFUSED' });
    }
  });

  it('refuses a header edited after signing, or signed by another key or under another domain', async () => {
    const { header, terms } = await signed(v2(), 2);
    const edits = [
      tampered(header, (payment) => void ((payment.payload.authorization as { value: string }).value = '1500000')),
      tampered(header, (payment) => void ((payment.payload.authorization as { validBefore: string }).validBefore = String(now() + 100))),
      tampered(header, (payment) => void (payment.accepted.amount = '1')),
    ];
    for (const edited of edits) await expect(assertSignedAsPriced(edited, terms, domain)).rejects.toMatchObject({ code: 'X402_REFUSED' });
    await expect(assertSignedAsPriced(header, terms, { ...domain, name: 'USD Coin' })).rejects.toMatchObject({ code: 'X402_REFUSED' });
    const stranger = privateKeyToAccount(generatePrivateKey());
    const priced = priceRequirement(v2(), 2, chain, 300);
    const strangers = await signX402Authorization({ account: stranger, requirement: v2(), priced, domain });
    const forged = tampered(strangers, (payment) => void ((payment.payload.authorization as { from: string }).from = agent.address));
    await expect(assertSignedAsPriced(forged, terms, domain)).rejects.toMatchObject({ code: 'X402_REFUSED' });
  });
});

describe('the upto scheme', () => {
  const FACILITATOR = '0x3333333333333333333333333333333333333333';
  const upto = (overrides: Record<string, unknown> = {}) =>
    v2({ scheme: 'upto', amount: '1000000', extra: { name: 'USDC', version: '2', assetTransferMethod: 'permit2', facilitatorAddress: FACILITATOR }, ...overrides });

  it('is priced at its maximum, with the facilitator the seller named, in x402 v2 only', () => {
    expect(priceRequirement(upto(), 2, chain, 300)).toMatchObject({ scheme: 'upto', amount: 1_000_000n, facilitator: FACILITATOR, validitySeconds: 60 });
    expect(() => priceRequirement({ ...upto(), network: 'base-sepolia' }, 1, chain, 300)).toThrow(expect.objectContaining({ code: 'X402_REFUSED' }));
    expect(() => priceRequirement(upto({ extra: { name: 'USDC', version: '2', assetTransferMethod: 'permit2' } }), 2, chain, 300)).toThrow(/facilitator/);
    expect(() => priceRequirement(upto({ extra: { assetTransferMethod: 'eip3009', facilitatorAddress: FACILITATOR } }), 2, chain, 300)).toThrow(expect.objectContaining({ code: 'X402_REFUSED' }));
  });

  it('signs a Permit2 authorisation of at most the maximum, only to the payee, through the upto proxy, settled by that facilitator', async () => {
    const { header, terms } = await signed(upto(), 2);
    const decoded = await assertSignedAsPriced(header, terms, domain);
    expect(decoded.scheme).toBe('upto');
    if (decoded.scheme !== 'upto') return;
    const { permit2Authorization: permit } = decoded.payload;
    expect(permit).toMatchObject({ from: agent.address, permitted: { token: USDC, amount: '1000000' }, witness: { to: SELLER, facilitator: FACILITATOR } });
    expect(Number(permit.deadline)).toBeLessThanOrEqual(now() + 60);
    // No approval for the seller to submit: Purser sets the Permit2 allowance itself.
    expect(decodePaymentSignatureHeader(header).extensions).toBeUndefined();
  });

  it('refuses a header whose terms differ, or that was edited after signing', async () => {
    const { header, terms } = await signed(upto(), 2);
    const differing: Partial<AuthorizationTerms>[] = [
      { amount: 999_999n },
      { payTo: '0x2222222222222222222222222222222222222222' },
      { facilitator: '0x4444444444444444444444444444444444444444' },
      { facilitator: undefined },
      { scheme: 'exact' },
      { latestValidBefore: BigInt(now() + 10) },
    ];
    for (const change of differing) {
      await expect(assertSignedAsPriced(header, { ...terms, ...change }, domain), JSON.stringify(change, (_k, v) => (typeof v === 'bigint' ? String(v) : v))).rejects.toMatchObject({ code: 'X402_REFUSED' });
    }
    type Permit = { permitted: { amount: string }; spender: string; witness: { to: string; facilitator: string } };
    const permitOf = (payment: PaymentPayload) => (payment.payload as { permit2Authorization: Permit }).permit2Authorization;
    const edits = [
      tampered(header, (payment) => void (permitOf(payment).permitted.amount = '2000000')),
      tampered(header, (payment) => void (permitOf(payment).witness.to = '0x2222222222222222222222222222222222222222')),
      tampered(header, (payment) => void (permitOf(payment).witness.facilitator = '0x4444444444444444444444444444444444444444')),
      tampered(header, (payment) => void (permitOf(payment).spender = '0x4444444444444444444444444444444444444444')),
    ];
    for (const edited of edits) await expect(assertSignedAsPriced(edited, terms, domain)).rejects.toMatchObject({ code: 'X402_REFUSED' });
  });
});

describe('priceRequirement for batch-settlement channels', () => {
  const AUTHORIZER = '0x3333333333333333333333333333333333333333';
  const channel = (extra: Record<string, unknown> = {}) => v2({ scheme: 'batch-settlement', extra: { name: 'USDC', version: '2', receiverAuthorizer: AUTHORIZER, ...extra } });
  const price = (requirement: Record<string, unknown>, version: 1 | 2 = 2) => priceRequirement(requirement, version, chain, DEFAULT_X402_MAX_VALIDITY_SECONDS);

  it('prices the deposit: the seller\'s minimum deposit, and at least one call; each voucher adds the call\'s price', () => {
    expect(price(channel({ minDeposit: '500000', withdrawDelay: 900 }))).toMatchObject({ scheme: 'batch-settlement', amount: 500_000n, channel: { price: 10_000n, receiverAuthorizer: AUTHORIZER, withdrawDelay: 900, minDeposit: 500_000n } });
    expect(price(channel()).amount).toBe(10_000n);
    expect(price(channel({ minDeposit: '5000' })).amount).toBe(10_000n);
  });

  it('refuses a channel the contract or the official client would not take, and any channel in x402 v1', () => {
    expect(() => price(channel({ receiverAuthorizer: undefined }))).toThrow('receiver authorizer');
    expect(() => price(channel({ receiverAuthorizer: '0x0000000000000000000000000000000000000000' }))).toThrow('receiver authorizer');
    expect(() => price(channel({ withdrawDelay: 60 }))).toThrow('withdrawDelay');
    expect(() => price(channel({ withdrawDelay: 2_592_001 }))).toThrow('withdrawDelay');
    expect(() => price(channel({ minDeposit: '0.5' }))).toThrow('minDeposit');
    expect(() => price(channel({ assetTransferMethod: 'permit2' }))).toThrow('EIP-3009');
    expect(() => price(v1({ scheme: 'batch-settlement' }), 1)).toThrow('Only the "exact" x402 scheme is paid');
  });

  it("refuses a seller that asks more than Purser's bounds: a withdraw delay above one day, a deposit above 100 calls' worth", () => {
    expect(price(channel({ withdrawDelay: MAX_CHANNEL_WITHDRAW_DELAY_S })).channel?.withdrawDelay).toBe(86_400);
    expect(() => price(channel({ withdrawDelay: MAX_CHANNEL_WITHDRAW_DELAY_S + 1 }))).toThrow(expect.objectContaining({ code: 'X402_REFUSED', message: expect.stringContaining('above the 86400 seconds (one day)') }));
    expect(() => price(channel({ withdrawDelay: 2_592_000 }))).toThrow(expect.objectContaining({ code: 'X402_REFUSED' }));
    // $0.01 a call: a $1 deposit is 100 calls, a cent more is refused.
    expect(price(channel({ minDeposit: '1000000' })).amount).toBe(1_000_000n);
    expect(() => price(channel({ minDeposit: '1000001' }))).toThrow(
      expect.objectContaining({ code: 'X402_REFUSED', message: expect.stringContaining("deposit of 1.000001 USDC for calls of 0.01 USDC, above the 100 calls' worth (1 USDC)") }),
    );
  });
});
