/**
 * New heads pushed by the node (`eth_subscribe` `newHeads` over a WebSocket), for the read cache
 * (chain-read-cache.ts): a process that follows the chain this way learns of each block the
 * moment it is mined and spends nothing while the chain is still, where polling the head over
 * HTTP costs a request every interval (on the sandbox, ten a second: the largest part of an idle
 * server's CPU while agents read their balances).
 *
 * One socket per subscription, through `ws` (the WebSocket library viem itself uses), so that
 * each attempt is bounded: the handshake and the node's confirmation within `timeoutMs`, a ping
 * answered within `heartbeatMs`, or the socket is torn down. A subscription counts once the node
 * confirmed it, and is lost for good at the first failure (the socket closed, the node went
 * silent): nothing re-subscribes behind the cache's back, and the cache asks for a new one when it
 * wants one. What the node pushes is only ever a reason to read again: a lying node can cost
 * reads, never a figure.
 */
import WebSocket from 'ws';

export interface HeadFeedHandlers {
  /** A new head's number. */
  onHead(block: bigint): void;
  /** The subscription is over (called at most once, only after it was confirmed). */
  onLost(error: Error): void;
}

export interface HeadFeed {
  /** Resolves once the node confirmed the subscription, with how to end it; rejects when it cannot. */
  subscribe(handlers: HeadFeedHandlers): Promise<() => void>;
}

export interface WebSocketHeadFeedOptions {
  /** The handshake and the node's confirmation, at most. */
  timeoutMs?: number;
  /** How often the socket is pinged; a ping unanswered by the next one loses the feed. */
  heartbeatMs?: number;
}

const SUBSCRIBE_ID = 1;
const QUANTITY = /^0x[0-9a-f]{1,64}$/i;

/** Anvil and most nodes serve WebSocket JSON-RPC on their HTTP port: the same address, ws:// for http://. */
export function webSocketUrlOf(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

export function webSocketHeadFeed(url: string, { timeoutMs = 5_000, heartbeatMs = 30_000 }: WebSocketHeadFeedOptions = {}): HeadFeed {
  return {
    subscribe: ({ onHead, onLost }) =>
      new Promise((resolve, reject) => {
        const socket = new WebSocket(url, { handshakeTimeout: timeoutMs });
        let subscription: string | undefined;
        let ended = false;
        let answered = true;
        const end = () => {
          if (ended) return;
          ended = true;
          clearTimeout(confirmBy);
          clearInterval(heartbeat);
          socket.terminate();
        };
        const fail = (error: Error) => {
          if (ended) return;
          end();
          if (subscription === undefined) reject(error);
          else onLost(error);
        };
        const confirmBy = setTimeout(() => fail(new Error(`The node at ${url} did not confirm a newHeads subscription within ${timeoutMs} ms`)), timeoutMs);
        const heartbeat = setInterval(() => {
          if (!answered) return fail(new Error(`The node at ${url} did not answer a ping within ${heartbeatMs} ms`));
          answered = false;
          socket.ping();
        }, heartbeatMs);
        heartbeat.unref();

        socket.on('open', () => socket.send(JSON.stringify({ jsonrpc: '2.0', id: SUBSCRIBE_ID, method: 'eth_subscribe', params: ['newHeads'] })));
        socket.on('pong', () => (answered = true));
        socket.on('error', fail);
        socket.on('close', () => fail(new Error(`The node at ${url} closed the head feed`)));
        socket.on('message', (data) => {
          let message: { id?: unknown; result?: unknown; error?: unknown; method?: unknown; params?: { subscription?: unknown; result?: { number?: unknown } } };
          try {
            message = JSON.parse(String(data)) as typeof message;
          } catch {
            return fail(new Error(`The node at ${url} sent a head feed message that is not JSON`));
          }
          if (subscription === undefined) {
            if (message.id !== SUBSCRIBE_ID) return;
            if (typeof message.result !== 'string') return fail(new Error(`The node at ${url} refused a newHeads subscription: ${JSON.stringify(message.error ?? null)}`));
            subscription = message.result;
            clearTimeout(confirmBy);
            return resolve(end);
          }
          const number = message.params?.result?.number;
          if (message.method === 'eth_subscription' && message.params?.subscription === subscription && typeof number === 'string' && QUANTITY.test(number)) {
            onHead(BigInt(number));
          }
        });
      }),
  };
}
