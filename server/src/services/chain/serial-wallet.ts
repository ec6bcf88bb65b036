/**
 * An account's wallet that broadcasts one transaction at a time. Each transaction asks the chain
 * for the account's next nonce (block tag 'pending') only after the previous one was accepted, so
 * concurrent mints and settlements never reuse a nonce, and a transaction that fails before
 * broadcast (a revert in gas estimation) leaves no gap. Callers wait for receipts outside the queue.
 */
import { type Account, type Address, type Chain, createWalletClient, type Hex, http, type Transport, type WalletClient } from 'viem';

export type ChainWalletClient = WalletClient<Transport, Chain, Account>;

export interface SerialWallet {
  address: Address;
  send(broadcast: (wallet: ChainWalletClient) => Promise<Hex>): Promise<Hex>;
}

export function createSerialWallet(account: Account, chain: Chain, rpcUrl: string): SerialWallet {
  const wallet = createWalletClient({ account, chain, transport: http(rpcUrl) });
  let queue: Promise<unknown> = Promise.resolve();
  return {
    address: account.address,
    send(broadcast) {
      const sent = queue.then(() => broadcast(wallet));
      queue = sent.catch(() => undefined);
      return sent;
    },
  };
}
