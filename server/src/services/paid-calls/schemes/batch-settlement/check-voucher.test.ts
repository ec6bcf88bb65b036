import { BatchSettlementEvmScheme, computeChannelId, type ClientChannelStorage } from '@x402/evm/batch-settlement/client';
import { toClientEvmSigner, type BatchSettlementDepositPayload, type BatchSettlementVoucherPayload, type ChannelConfig } from '@x402/evm';
import type { PaymentRequirements } from '@x402/core/types';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { checkVoucher } from './voucher';

const USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';
const SELLER = '0x1111111111111111111111111111111111111111';
const AUTHORIZER = '0x3333333333333333333333333333333333333333';
const NETWORK = 'eip155:84532';
const SALT = `0x${'5a'.repeat(32)}` as Hex;
const agent = privateKeyToAccount(generatePrivateKey());
const requirement = {
  scheme: 'batch-settlement',
  network: NETWORK,
  amount: '10000',
  asset: USDC,
  payTo: SELLER,
  maxTimeoutSeconds: 60,
  extra: { name: 'USDC', version: '2', receiverAuthorizer: AUTHORIZER, withdrawDelay: 900, minDeposit: '500000' },
} as unknown as PaymentRequirements;
const config: ChannelConfig = { payer: agent.address, payerAuthorizer: agent.address, receiver: SELLER, receiverAuthorizer: AUTHORIZER, token: USDC, withdrawDelay: 900, salt: SALT };
const channelId = computeChannelId(config, NETWORK);

/** What the official client signs for a channel whose vouchers so far total `cumulative`. */
async function sign(cumulative: bigint, deposited: boolean, deposit = 500_000n) {
  const storage: ClientChannelStorage = {
    get: async () => ({ chargedCumulativeAmount: cumulative.toString(), ...(deposited ? { balance: '500000' } : {}) }),
    set: async () => {},
    delete: async () => {},
  };
  const client = new BatchSettlementEvmScheme(toClientEvmSigner(agent), { storage, salt: SALT, payerAuthorizer: agent.address, depositStrategy: () => deposit.toString() });
  return (await client.createPaymentPayload(2, requirement)).payload as unknown as BatchSettlementDepositPayload | BatchSettlementVoucherPayload;
}

const expected = (overrides: Partial<Parameters<typeof checkVoucher>[1]> = {}) => ({
  config,
  channelId,
  cumulative: 10_000n,
  deposit: 500_000n,
  depositDue: true,
  latestValidBefore: BigInt(Math.floor(Date.now() / 1000) + 60),
  ...overrides,
});

describe('checkVoucher', () => {
  it('passes the first call, the held deposit with a voucher for one price, and a later voucher for the next total', async () => {
    const first = await sign(0n, false);
    expect(first.type).toBe('deposit');
    expect(() => checkVoucher(first, expected())).not.toThrow();
    const later = await sign(30_000n, true);
    expect(later.type).toBe('voucher');
    expect(() => checkVoucher(later, expected({ cumulative: 40_000n, depositDue: false }))).not.toThrow();
  });

  it('refuses a deposit other than the one held, a second deposit, or a first call without one', async () => {
    const [larger, deposit, voucherOnly] = await Promise.all([sign(0n, false, 600_000n), sign(0n, false), sign(0n, true)]);
    expect(() => checkVoucher(larger, expected())).toThrow('deposit 600000, not the held 500000');
    expect(() => checkVoucher(deposit, expected({ depositDue: false }))).toThrow('a second deposit');
    expect(() => checkVoucher(voucherOnly, expected())).toThrow('no deposit on the first call');
  });

  it('refuses a voucher for another total, above the deposit, for another channel, payee or token, or a deposit valid too long', async () => {
    const later = await sign(30_000n, true);
    expect(() => checkVoucher(later, expected({ cumulative: 30_000n, depositDue: false }))).toThrow('voucher for 40000, not 30000');
    expect(() => checkVoucher(later, expected({ cumulative: 40_000n, deposit: 30_000n, depositDue: false }))).toThrow('above the deposit');
    const other = { ...config, salt: `0x${'00'.repeat(32)}` as Hex };
    expect(() => checkVoucher(later, expected({ config: other, channelId: computeChannelId(other, NETWORK), cumulative: 40_000n, depositDue: false }))).toThrow('salt differ');
    expect(() => checkVoucher(later, expected({ config: { ...config, receiver: AUTHORIZER }, cumulative: 40_000n, depositDue: false }))).toThrow(`receiver ${SELLER}`);
    expect(() => checkVoucher(later, expected({ config: { ...config, token: SELLER }, cumulative: 40_000n, depositDue: false }))).toThrow(`token ${USDC}`);
    const deposit = await sign(0n, false);
    expect(() => checkVoucher(deposit, expected({ latestValidBefore: 1n }))).toThrow("outside Purser's window");
  });
});
