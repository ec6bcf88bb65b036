/**
 * Figures read from the chain far more often than the chain changes (GET /balance: an agent's
 * USDC and ETH), read from the node once per key and block and answered from memory until this
 * process learns that the chain moved on. Then every figure is read again: a block may change
 * any address, and telling which would cost more than reading again.
 *
 * How it learns, all through the transports of the chain's clients (`observe`):
 * - every block number the node answers with: a head (eth_blockNumber), the block of a receipt,
 *   of a log or of a block read. Whatever this process sends and waits for (a mint, an x402
 *   settlement, a cancellation) reaches its caller through a receipt, so the cache is emptied
 *   before that caller hears its transaction was mined: a GET /balance right after a top-up or
 *   a payment reads the chain again;
 * - a transaction sent, and anvil's test actions (anvil_setBalance...), which change state
 *   without a block of their own (a sandbox top-up sets the address's gas ETH that way);
 * - what others change (a transfer in, a seller's facilitator, another process on the same
 *   sandbox chain), from the node's new heads: pushed by the node when the chain has a head feed
 *   (`follow`, head-feed.ts: a WebSocket subscription, seen the moment the block is mined, and
 *   nothing spent while the chain is still); otherwise, and whenever the feed is not confirmed or
 *   was lost, a poll of the head every `pollingIntervalMs` while figures are being read, seen
 *   within one interval. A poll that fails, or a feed that is lost, empties the cache: a node that
 *   cannot say its head cannot vouch for what it said before. A lost feed is asked for again, at
 *   most once every `feedRetryMs`, polling meanwhile. Polling stops, and the cache is emptied,
 *   after `idleMs` without a read.
 */
import type { PublicClient, Transport } from 'viem';
import type { HeadFeed } from './head-feed';

export interface ChainReadCacheOptions {
  /** How often the head is polled while figures are read. */
  pollingIntervalMs: number;
  /** Without a read for this long, polling stops and the cache is emptied. */
  idleMs?: number;
  /** Keys kept at most; the oldest goes first. */
  maxEntries?: number;
  /** How long after a head feed failed or was lost it is asked for again. */
  feedRetryMs?: number;
}

export interface ChainReadCache {
  /** `transport`, telling this cache of each block number its answers carry and of each change it makes. */
  observe<T extends Transport>(transport: T): T;
  /** Polls the head through `client` (whose transport is observed) while figures are read, unless a head feed is live. */
  watch(client: Pick<PublicClient, 'request'>): void;
  /** Learns of new heads from `feed` instead of polling, once its subscription is confirmed (asked for on the first read). */
  follow(feed: HeadFeed): void;
  /** What `read` gives for `key`, from the node once per block: concurrent callers share one read. */
  read<T>(key: string, read: () => Promise<T>): Promise<T>;
  /** Stops polling and forgets everything. */
  close(): void;
}

const DEFAULT_IDLE_MS = 30_000;
const DEFAULT_MAX_ENTRIES = 10_000;
const DEFAULT_FEED_RETRY_MS = 5_000;
/** Calls that change the chain's state without (or before) a block this process hears of. */
const STATE_CHANGING = /^(eth_sendRawTransaction|eth_sendTransaction|anvil_\w+|evm_\w+|hardhat_\w+)$/;

export function createChainReadCache({
  pollingIntervalMs,
  idleMs = DEFAULT_IDLE_MS,
  maxEntries = DEFAULT_MAX_ENTRIES,
  feedRetryMs = DEFAULT_FEED_RETRY_MS,
}: ChainReadCacheOptions): ChainReadCache {
  // Each entry was asked of the node after the last change this process learned of.
  const entries = new Map<string, Promise<unknown>>();
  let head: bigint | undefined;
  let client: Pick<PublicClient, 'request'> | undefined;
  let poller: NodeJS.Timeout | undefined;
  let lastRead = 0;
  let closed = false;
  /** The head feed, when the chain has one; `end` is set while its subscription is live (confirmed, not lost). */
  const heads = {
    feed: undefined as HeadFeed | undefined,
    end: undefined as (() => void) | undefined,
    subscribing: false,
    failedAt: -Infinity,
  };
  const following = () => heads.end !== undefined;

  const forget = () => entries.clear();
  /** The node's head: any change, a lower one too (a sandbox chain restarted from its state file). */
  const sawHead = (block: bigint) => {
    if (block === head) return;
    head = block;
    forget();
  };
  /** A block that exists: news only when above the head (receipts and logs may be of old blocks). */
  const sawBlock = (block: bigint) => {
    if (head !== undefined && block <= head) return;
    head = block;
    forget();
  };

  function learn(method: string, result: unknown): void {
    if (method === 'eth_blockNumber') {
      if (typeof result === 'string') sawHead(BigInt(result));
    } else if (method === 'eth_getTransactionReceipt' || method === 'eth_getBlockByNumber' || method === 'eth_getBlockByHash') {
      const block = result as { blockNumber?: unknown; number?: unknown } | null;
      const number = method === 'eth_getTransactionReceipt' ? block?.blockNumber : block?.number;
      if (typeof number === 'string') sawBlock(BigInt(number));
    } else if (method === 'eth_getLogs' && Array.isArray(result)) {
      for (const log of result as Array<{ blockNumber?: unknown }>) if (typeof log.blockNumber === 'string') sawBlock(BigInt(log.blockNumber));
    }
  }

  /** Asks the feed for a subscription, unless one is live or on its way, or the last try failed just now. */
  function subscribe(feed: HeadFeed): void {
    if (following() || heads.subscribing || Date.now() - heads.failedAt < feedRetryMs) return;
    heads.subscribing = true;
    const lost = () => {
      heads.end = undefined;
      heads.failedAt = Date.now();
      forget();
    };
    feed.subscribe({ onHead: sawHead, onLost: lost }).then(
      (end) => {
        heads.subscribing = false;
        if (closed) return end();
        // Anything read before the node confirmed may predate a block the feed will never announce.
        forget();
        heads.end = end;
      },
      () => {
        heads.subscribing = false;
        heads.failedAt = Date.now();
      },
    );
  }

  function poll(watching: Pick<PublicClient, 'request'>): void {
    const tick = async () => {
      if (closed) return;
      // The feed tells of every head now: no poll is needed.
      if (following()) {
        poller = undefined;
        return;
      }
      if (Date.now() - lastRead > idleMs) {
        poller = undefined;
        forget();
        return;
      }
      // The answer reaches learn() through the observed transport.
      await watching.request({ method: 'eth_blockNumber' }, { retryCount: 0 }).catch(forget);
      if (!closed) poll(watching);
    };
    poller = setTimeout(() => void tick(), pollingIntervalMs);
    poller.unref();
  }

  return {
    observe<T extends Transport>(transport: T): T {
      return ((params) => {
        const inner = transport(params);
        const request = (async (args, options) => {
          if (STATE_CHANGING.test(args.method)) {
            try {
              return await inner.request(args, options);
            } finally {
              forget();
            }
          }
          const result: unknown = await inner.request(args, options);
          learn(args.method, result);
          return result;
        }) as typeof inner.request;
        return { ...inner, request };
      }) as T;
    },
    watch(watched) {
      client = watched;
    },
    follow(feed) {
      heads.feed = feed;
    },
    read<T>(key: string, read: () => Promise<T>): Promise<T> {
      if (closed) return read();
      if (heads.feed) subscribe(heads.feed);
      // Neither fed nor polled, nothing would tell it of what others change: no figure is kept.
      if (!following() && !client) return read();
      lastRead = Date.now();
      if (!following() && !poller && client) poll(client);
      const known = entries.get(key) as Promise<T> | undefined;
      if (known) return known;
      const reading = read();
      entries.set(key, reading);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      // A failed read is not remembered: the next caller asks again.
      reading.catch(() => entries.get(key) === reading && entries.delete(key));
      return reading;
    },
    close() {
      closed = true;
      heads.end?.();
      heads.end = undefined;
      clearTimeout(poller);
      poller = undefined;
      forget();
    },
  };
}
