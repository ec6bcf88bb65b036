/**
 * The chain read cache following anvil's new heads over a WebSocket (head-feed.ts) instead of
 * polling the head: while the feed is live the cache sends no eth_blockNumber at all and still
 * shows what another process changed once its block is mined; when the feed is lost it empties,
 * polls until the feed is back, then stops polling again; a node that offers no WebSocket is
 * polled as before.
 *
 * A real anvil behind a relay that logs each HTTP JSON-RPC call and passes WebSocket upgrades
 * through to anvil as raw TCP (so the feed is anvil's own), and can cut those connections or
 * refuse them (support/logging-rpc-relay.ts).
 */
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import { createPublicClient, createWalletClient, http, parseEther, type Address, type PublicClient } from 'viem';
import { mnemonicToAccount, generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChainReadCache, type ChainReadCache } from '../src/services/chain/network/chain-read-cache';
import { webSocketHeadFeed, webSocketUrlOf } from '../src/services/chain/network/head-feed';
import { type AnvilProcess, startAnvil } from '../src/services/chain/sandbox/sandbox-anvil';
import { ANVIL_MNEMONIC } from '../src/services/chain/sandbox/start-sandbox-chain';
import { startLoggingRpcRelay, type LoggingRpcRelay } from './support/logging-rpc-relay';

const CHAIN = { id: 84532, name: 'anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] as string[] } } };

let anvil: AnvilProcess;
let relay: LoggingRpcRelay;
let cache: ChainReadCache | undefined;

beforeAll(async () => {
  anvil = await startAnvil({ chainId: CHAIN.id, mnemonic: ANVIL_MNEMONIC });
  relay = await startLoggingRpcRelay(anvil.rpcUrl);
}, 60_000);

afterEach(() => {
  cache?.close();
  cache = undefined;
  relay.webSockets = true;
});

afterAll(async () => {
  await relay?.close();
  await anvil?.stop();
});

/** A cache as the sandbox builds it: observed HTTP client polled when needed, anvil's head feed followed. */
function followedCache(options: { feedRetryMs: number }): { reads: ChainReadCache; client: PublicClient } {
  const reads = createChainReadCache({ pollingIntervalMs: 50, feedRetryMs: options.feedRetryMs });
  const client = createPublicClient({ chain: CHAIN, transport: reads.observe(http(relay.url, { batch: true })) }) as PublicClient;
  reads.watch(client);
  reads.follow(webSocketHeadFeed(webSocketUrlOf(relay.url)));
  cache = reads;
  return { reads, client };
}

const polls = () => relay.calls.filter((call) => call.method === 'eth_blockNumber').length;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Another process's transfer: its own wallet, straight to anvil; answers once it is mined. */
async function transferFromElsewhere(to: Address, wei: bigint): Promise<void> {
  const wallet = createWalletClient({ account: mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 5 }), chain: CHAIN, transport: http(anvil.rpcUrl) });
  const node = createPublicClient({ chain: CHAIN, transport: http(anvil.rpcUrl) });
  await node.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to, value: wei }), pollingInterval: 20 });
}

/** Reads `address`'s ETH through the cache until it is `expected` (or 5 s pass); answers the last. */
async function readUntil(reads: ChainReadCache, client: PublicClient, address: Address, expected: bigint): Promise<bigint> {
  let shown = await reads.read(`eth:${address}`, () => client.getBalance({ address }));
  for (let tries = 0; shown !== expected && tries < 100; tries++) {
    await sleep(50);
    shown = await reads.read(`eth:${address}`, () => client.getBalance({ address }));
  }
  return shown;
}

/** Waits until the cache has polled nothing for `quietMs` (the feed is live), or fails after 5 s. */
async function untilPollingStops(quietMs = 400): Promise<void> {
  for (let waited = 0; waited < 5_000; waited += quietMs) {
    const before = polls();
    await sleep(quietMs);
    if (polls() === before) return;
  }
  throw new Error('the cache kept polling the head: its feed never became live');
}

describe('webSocketUrlOf', () => {
  it("answers the node's WebSocket address on its HTTP port", () => {
    expect(webSocketUrlOf('http://127.0.0.1:8545')).toBe('ws://127.0.0.1:8545/');
    expect(webSocketUrlOf('https://node.example/rpc/key')).toBe('wss://node.example/rpc/key');
  });
});

describe('a head feed from a node that lies or says nothing', () => {
  it('gives up on a node that takes the connection and never answers, and closes it', async () => {
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => void sockets.push(socket.resume()));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const feed = webSocketHeadFeed(`ws://127.0.0.1:${(silent.address() as AddressInfo).port}`, { timeoutMs: 300 });
      await expect(feed.subscribe({ onHead: () => {}, onLost: () => {} })).rejects.toThrow();
      await expect.poll(() => sockets.length === 1 && sockets[0]!.destroyed).toBe(true);
    } finally {
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('rejects a refused subscription, passes on only heads of its own subscription, and is lost once when the node hangs up', async () => {
    const node = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((resolve) => node.once('listening', resolve));
    let refuse = true;
    node.on('connection', (socket) => {
      socket.on('message', (data) => {
        const { id } = JSON.parse(String(data)) as { id: number };
        if (refuse) return socket.send(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: 'no subscriptions here' } }));
        socket.send(JSON.stringify({ jsonrpc: '2.0', id, result: '0xmine' }));
        const push = (subscription: string, number: unknown) => socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription, result: { number } } }));
        push('0xsomeone-else', '0x99');
        push('0xmine', 'not a number');
        push('0xmine', 7);
        push('0xmine', '0x2a');
        setTimeout(() => socket.close(), 100);
      });
    });
    try {
      const feed = webSocketHeadFeed(`ws://127.0.0.1:${(node.address() as AddressInfo).port}`, { timeoutMs: 2_000 });
      await expect(feed.subscribe({ onHead: () => {}, onLost: () => {} })).rejects.toThrow(/refused a newHeads subscription.*no subscriptions here/);

      refuse = false;
      const heads: bigint[] = [];
      const lost: Error[] = [];
      await feed.subscribe({ onHead: (block) => heads.push(block), onLost: (error) => lost.push(error) });
      await expect.poll(() => lost.length).toBe(1);
      expect(heads).toEqual([42n]);
      expect(lost[0]!.message).toMatch(/closed the head feed/);
    } finally {
      await new Promise((resolve) => node.close(resolve));
    }
  });
});

describe('the read cache following new heads', () => {
  it('sends no eth_blockNumber while the feed is live, reads an unchanged chain once, and shows an outside transfer once its block is mined', async () => {
    const { reads, client } = followedCache({ feedRetryMs: 200 });
    const address = privateKeyToAccount(generatePrivateKey()).address;
    expect(await reads.read(`eth:${address}`, () => client.getBalance({ address }))).toBe(0n);
    await untilPollingStops();
    await expect.poll(() => relay.openWebSockets()).toBe(1);

    // What was read before the node confirmed the feed was forgotten then: read once more.
    expect(await reads.read(`eth:${address}`, () => client.getBalance({ address }))).toBe(0n);
    const pollsBefore = polls();
    const readsBefore = relay.calls.filter((call) => call.method === 'eth_getBalance').length;
    for (let i = 0; i < 20; i++) expect(await reads.read(`eth:${address}`, () => client.getBalance({ address }))).toBe(0n);
    expect(relay.calls.filter((call) => call.method === 'eth_getBalance').length - readsBefore).toBe(0);

    await transferFromElsewhere(address, parseEther('0.5'));
    expect(await readUntil(reads, client, address, parseEther('0.5'))).toBe(parseEther('0.5'));
    expect(polls() - pollsBefore).toBe(0);
  });

  it('empties and polls when the feed is lost, then follows a new feed and stops polling', async () => {
    const { reads, client } = followedCache({ feedRetryMs: 300 });
    const address = privateKeyToAccount(generatePrivateKey()).address;
    await reads.read(`eth:${address}`, () => client.getBalance({ address }));
    await untilPollingStops();

    relay.webSockets = false;
    relay.cutWebSockets();
    await sleep(50);
    const pollsAtCut = polls();
    // Lost: the next read goes to the node, and the cache polls again meanwhile.
    await transferFromElsewhere(address, parseEther('0.25'));
    expect(await readUntil(reads, client, address, parseEther('0.25'))).toBe(parseEther('0.25'));
    await sleep(200);
    expect(polls()).toBeGreaterThan(pollsAtCut);

    // The node takes WebSockets again: a new subscription is asked for and polling stops.
    relay.webSockets = true;
    await reads.read(`eth:${address}`, () => client.getBalance({ address }));
    await sleep(400);
    await reads.read(`eth:${address}`, () => client.getBalance({ address }));
    await untilPollingStops();
    await transferFromElsewhere(address, parseEther('0.25'));
    const pollsBefore = polls();
    expect(await readUntil(reads, client, address, parseEther('0.5'))).toBe(parseEther('0.5'));
    expect(polls() - pollsBefore).toBe(0);
  });

  it('polls a node that offers no WebSocket, and still shows an outside transfer', async () => {
    relay.webSockets = false;
    const { reads, client } = followedCache({ feedRetryMs: 60_000 });
    const address = privateKeyToAccount(generatePrivateKey()).address;
    expect(await reads.read(`eth:${address}`, () => client.getBalance({ address }))).toBe(0n);
    const pollsBefore = polls();
    await sleep(300);
    expect(polls()).toBeGreaterThan(pollsBefore);

    await transferFromElsewhere(address, parseEther('0.1'));
    expect(await readUntil(reads, client, address, parseEther('0.1'))).toBe(parseEther('0.1'));
  });

  it('closes its socket when the cache is closed', async () => {
    const { reads, client } = followedCache({ feedRetryMs: 200 });
    const address = privateKeyToAccount(generatePrivateKey()).address;
    await reads.read(`eth:${address}`, () => client.getBalance({ address }));
    await untilPollingStops();
    await expect.poll(() => relay.openWebSockets()).toBe(1);

    reads.close();
    cache = undefined;
    await expect.poll(() => relay.openWebSockets()).toBe(0);
  });
});
