/**
 * An account's wallet that broadcasts one transaction at a time. Each transaction asks the chain
 * for the account's next nonce (block tag 'pending') only after the previous one was accepted, so
 * concurrent mints and settlements never reuse a nonce, and a transaction that fails before
 * broadcast (a revert in gas estimation) leaves no gap. Callers wait for receipts outside the queue.
 *
 * With a journal (the sandbox chain), every transaction is journaled before it leaves, so one
 * the node loses (anvil killed before writing its state file) can be replayed with its original
 * hash. The wallet's client sends through a transport that records each eth_sendRawTransaction
 * first; that covers whatever a broadcast calls (writeContract, sendTransaction), because viem
 * signs a local account's transactions itself and sends them raw.
 */
import {
  type Account,
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import type { TransactionJournal } from '../sandbox/transaction-journal';

/** Longer than a restart and replay take; see hold(). */
const HOLD_LIMIT_MS = 60_000;

export type ChainWalletClient = WalletClient<Transport, Chain, Account>;

export interface SerialWallet {
  address: Address;
  send(broadcast: (wallet: ChainWalletClient) => Promise<Hex>): Promise<Hex>;
  /**
   * For a node restarted from an older state: sends again, in nonce order, this account's
   * journaled transactions the node no longer has, and waits until they are mined. Call it
   * between hold() and release(), so nothing else the wallet sends goes out meanwhile. Without a
   * journal there is nothing to replay.
   */
  replayJournal(): Promise<ReplayResult>;
  /**
   * Holds the wallet until `release()`: new sends wait (they do not fail), and so does every
   * request of a send already under way, its retries included. A node restarted from an older
   * state must get its lost transactions back (replayJournal, which is not held) before anything
   * else asks it for a nonce and takes theirs. A hold ends by itself after HOLD_LIMIT_MS, so a
   * chain that never comes back makes sends fail instead of wait forever.
   */
  hold(): void;
  release(): void;
}

export interface ReplayResult {
  replayed: number;
  /** Replayed transactions that reverted this time, e.g. a payment authorisation that expired meanwhile. */
  reverted: Hex[];
}

/** The journal misses a nonce between the chain's and a journaled one: replaying would leave the rest unmined. */
export class JournalGapError extends Error {
  override name = 'JournalGapError';
  readonly code = 'JOURNAL_GAP';
}

export function createSerialWallet(account: Account, chain: Chain, rpcUrl: string, options: { journal?: TransactionJournal } = {}): SerialWallet {
  const { journal } = options;
  if (journal && account.type !== 'local') throw new Error('A journaled wallet must sign its transactions itself (a local account)');
  let held: { gate: Promise<void>; open: () => void } | undefined;
  const whenNotHeld = async () => {
    while (held) await held.gate;
  };
  // Each HTTP request the wallet makes, a retry too, waits out a hold.
  const transport = http(rpcUrl, { fetchFn: async (input, init) => (await whenNotHeld(), fetch(input, init)) });
  const wallet = createWalletClient({ account, chain, transport: journal ? journaled(transport, journal, account.address) : transport });
  // Replays send what the journal holds already, so they bypass the journaling transport (and
  // the hold). Anvil mines a moment after it accepts a transaction: a receipt asked for at once
  // may not be there yet, and viem's default 4 s poll would keep the wallet held that long.
  const node = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 50 });
  let queue: Promise<unknown> = Promise.resolve();
  function inTurn<T>(step: () => Promise<T>): Promise<T> {
    const done = queue.then(step);
    queue = done.catch(() => undefined);
    return done;
  }
  const release = () => {
    const current = held;
    held = undefined;
    current?.open();
  };
  return {
    address: account.address,
    send: async (broadcast) => {
      await whenNotHeld();
      return inTurn(() => broadcast(wallet));
    },
    // Not in the queue: a send in it may be waiting for the release that follows the replay.
    replayJournal: async () => (journal ? replay(node, journal, account.address) : { replayed: 0, reverted: [] }),
    hold() {
      if (held) return;
      let open = () => {};
      const gate = new Promise<void>((resolve) => (open = resolve));
      const limit = setTimeout(() => release(), HOLD_LIMIT_MS);
      limit.unref();
      held = { gate, open: () => (clearTimeout(limit), open()) };
    },
    release,
  };
}

async function replay(node: PublicClient, journal: TransactionJournal, address: Address): Promise<ReplayResult> {
  const chainNonce = await node.getTransactionCount({ address, blockTag: 'pending' });
  const lost = (await journal.transactionsOf(address)).filter((entry) => entry.nonce >= chainNonce);
  lost.forEach((entry, index) => {
    if (entry.nonce !== chainNonce + index) {
      throw new JournalGapError(`The journal of ${address} has no transaction with nonce ${chainNonce + index}, the chain's next; nothing was replayed`);
    }
  });
  const sent: Hex[] = [];
  for (const { raw, hash } of lost) {
    if (await resend(node, raw)) sent.push(hash);
  }
  const receipts = await Promise.all(sent.map((hash) => node.waitForTransactionReceipt({ hash })));
  return { replayed: sent.length, reverted: receipts.filter((receipt) => receipt.status !== 'success').map((receipt) => receipt.transactionHash) };
}

/** False when the node has the transaction already, or another one of its nonce. */
async function resend(node: PublicClient, raw: Hex): Promise<boolean> {
  try {
    await node.sendRawTransaction({ serializedTransaction: raw });
    return true;
  } catch (error) {
    if (error instanceof Error && /already (known|imported)|nonce too low/i.test(error.message)) return false;
    throw error;
  }
}

/** `transport`, journaling each raw transaction before sending it. */
function journaled(transport: Transport, journal: TransactionJournal, from: Address): Transport {
  return (params) => {
    const inner = transport(params);
    const request = (async (args, options) => {
      if (args.method !== 'eth_sendRawTransaction') return inner.request(args, options);
      const [raw] = args.params as [Hex];
      const { hash } = await journal.record(raw, from);
      try {
        return await inner.request(args, options);
      } catch (error) {
        // A reply lost after the node took the transaction (a timeout) does not unsend it.
        const known = await inner.request({ method: 'eth_getTransactionByHash', params: [hash] }, { retryCount: 0 }).catch(() => null);
        if (known) return hash;
        // The sender is told it failed and the wallet will reuse its nonce: a replay must not send it.
        await journal.discard(hash);
        throw error;
      }
    }) as typeof inner.request;
    return { ...inner, request };
  };
}
