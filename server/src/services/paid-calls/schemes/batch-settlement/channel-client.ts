/**
 * A channel as the contract and the official x402 client know it: its config, and a client whose
 * view of the channel is Purser's record (what the vouchers signed, the deposit once signed). The
 * client's own storage writes nothing: the record is written by Purser, under the channel's lock.
 */
import { toClientEvmSigner, type ChannelConfig } from '@x402/evm';
import { BatchSettlementEvmScheme, type BatchSettlementEvmSchemeOptions, type ClientChannelStorage } from '@x402/evm/batch-settlement/client';
import type { Address, LocalAccount } from 'viem';
import type { ChannelState } from './channel-state';

/** The channel's config, as the contract and the official client compute its id from it. */
export function channelConfigOf(state: Pick<ChannelState, 'payer' | 'payTo' | 'receiverAuthorizer' | 'withdrawDelay' | 'salt'>, token: Address): ChannelConfig {
  return {
    payer: state.payer as Address,
    payerAuthorizer: state.payer as Address,
    receiver: state.payTo as Address,
    receiverAuthorizer: state.receiverAuthorizer as Address,
    token,
    withdrawDelay: state.withdrawDelay,
    salt: state.salt as `0x${string}`,
  };
}

/** The official client for this channel, seeing `balance` as deposited once the deposit is signed. */
export function channelClient(account: LocalAccount, state: Pick<ChannelState, 'channelId' | 'cumulative' | 'deposit' | 'depositSigned' | 'salt'>, options: Pick<BatchSettlementEvmSchemeOptions, 'depositStrategy'> = {}): BatchSettlementEvmScheme {
  const storage: ClientChannelStorage = {
    get: async (id) => (id === state.channelId.toLowerCase() ? { chargedCumulativeAmount: state.cumulative, ...(state.depositSigned ? { balance: state.deposit } : {}) } : undefined),
    set: async () => {},
    delete: async () => {},
  };
  return new BatchSettlementEvmScheme(toClientEvmSigner(account), { storage, salt: state.salt as `0x${string}`, payerAuthorizer: account.address, ...options });
}
