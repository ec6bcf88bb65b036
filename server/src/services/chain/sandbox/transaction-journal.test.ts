import { type ChildProcess, spawn } from 'node:child_process';
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type Address, createPublicClient, defineChain, encodeFunctionData, type Hex, http, keccak256, parseAbi, type PublicClient } from 'viem';
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSerialWallet, JournalGapError, type SerialWallet } from '../network/serial-wallet';
import { findFreePort } from './sandbox-anvil';
import { openTransactionJournal, type TransactionJournal } from './transaction-journal';

const MNEMONIC = 'test test test test test test test test test test test junk';
const sender = mnemonicToAccount(MNEMONIC, { addressIndex: 0 });
const newAddress = (): Address => privateKeyToAccount(generatePrivateKey()).address;
const noteAbi = parseAbi(['function note(uint256 value) payable']);

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'purser-journal-'));
});
afterAll(() => rm(directory, { recursive: true, force: true }));

const running = new Set<ChildProcess>();
afterEach(() => Promise.all([...running].map((child) => stop(child, 'SIGKILL'))));

/**
 * Anvil as the product runs it, but writing its state file only on a clean stop (the product
 * also writes it every 10 s): a SIGKILL then surely loses every transaction since the last stop.
 */
async function startNode(port: number, stateFile: string) {
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', '84532', '--mnemonic', MNEMONIC, '--silent', '--state', stateFile, '--state-interval', '3600'];
  const child = spawn(anvilBinary(), args, { stdio: 'ignore' });
  running.add(child);
  child.once('exit', () => running.delete(child));
  await waitUntilAnswering(`http://127.0.0.1:${port}`, child);
  /** SIGTERM writes the state file; SIGKILL, as a crash, does not. */
  return { stop: (signal: 'SIGTERM' | 'SIGKILL') => stop(child, signal) };
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

async function waitUntilAnswering(rpcUrl: string, child: ChildProcess): Promise<void> {
  const request = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' };
  for (let attempt = 0; attempt < 400; attempt++) {
    if (child.exitCode !== null) throw new Error(`anvil exited with code ${child.exitCode}`);
    const answered = await fetch(rpcUrl, request).then((response) => response.ok, () => false);
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`anvil did not answer on ${rpcUrl}`);
}

/** The platform package's binary, as sandbox-anvil.ts finds it. */
function anvilBinary(): string {
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string];
  const packageJson = createRequire(import.meta.url).resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`);
  return join(dirname(packageJson), 'bin', 'anvil');
}

/** A port, state file and journal of their own, and the clients a test uses on them. */
async function sandbox(name: string) {
  const port = await findFreePort();
  const rpcUrl = `http://127.0.0.1:${port}`;
  const chain = defineChain({ id: 84532, name: 'journal test', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } });
  const journalFile = join(directory, `${name}.ndjson`);
  return {
    start: () => startNode(port, join(directory, `${name}-state.json`)),
    // Anvil mines a moment after it accepts: poll for receipts often rather than every 4 s.
    client: createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 50 }),
    journalFile,
    wallet: (journal: TransactionJournal = openTransactionJournal({ file: journalFile })) => createSerialWallet(sender, chain, rpcUrl, { journal }),
  };
}

const transfer = (wallet: SerialWallet, to: Address, value: bigint) => wallet.send((client) => client.sendTransaction({ to, value }));

async function mined(client: PublicClient, hashes: Hex[]): Promise<void> {
  for (const hash of hashes) expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');
}

const balances = (client: PublicClient, addresses: Address[]) => Promise.all(addresses.map((address) => client.getBalance({ address })));
const nonceOf = (client: PublicClient) => client.getTransactionCount({ address: sender.address, blockTag: 'pending' });

describe('replaying the transaction journal on a restarted anvil', () => {
  it('gives a chain killed before writing its state every transaction it lost, with the same hashes and exact balances', async () => {
    const { start, client, wallet: journaledWallet, journalFile } = await sandbox('lost');
    const wallet = journaledWallet();
    const [kept, ...recipients] = [newAddress(), newAddress(), newAddress(), newAddress()];

    let node = await start();
    const keptHash = await transfer(wallet, kept, 1_000n);
    await mined(client, [keptHash]);
    await node.stop('SIGTERM');

    node = await start();
    // Concurrent sends, and a contract call: writeContract is journaled like sendTransaction.
    const lostHashes = await Promise.all([
      transfer(wallet, recipients[0]!, 2_000n),
      transfer(wallet, recipients[1]!, 3_000n),
      wallet.send((w) => w.writeContract({ address: recipients[2]!, abi: noteAbi, functionName: 'note', args: [7n], value: 4_000n })),
    ]);
    await mined(client, lostHashes);
    const journaled = (await readFile(journalFile, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { hash: Hex; raw: Hex });
    expect(journaled.map((entry) => entry.hash).sort()).toEqual([keptHash, ...lostHashes].sort());
    expect(journaled.every((entry) => keccak256(entry.raw) === entry.hash)).toBe(true);
    await node.stop('SIGKILL');

    // Restarted on the same port and state file, as the product's supervisor does.
    await start();
    expect(await nonceOf(client)).toBe(1);
    expect(await balances(client, [kept, ...recipients])).toEqual([1_000n, 0n, 0n, 0n]);

    expect(await wallet.replayJournal()).toEqual({ replayed: 3, reverted: [] });
    await mined(client, lostHashes);
    expect(await nonceOf(client)).toBe(4);
    expect(await balances(client, [kept, ...recipients])).toEqual([1_000n, 2_000n, 3_000n, 4_000n]);
    const call = await client.getTransaction({ hash: lostHashes[2]! });
    expect(call.input).toBe(encodeFunctionData({ abi: noteAbi, functionName: 'note', args: [7n] }));

    // Everything is back: the next send follows the replayed ones.
    await mined(client, [await transfer(wallet, kept, 1n)]);
    expect(await nonceOf(client)).toBe(5);
  }, 30_000);

  it('replays nothing and changes nothing when the chain lost nothing', async () => {
    const { start, client, wallet: journaledWallet } = await sandbox('nothing-lost');
    const wallet = journaledWallet();
    const recipients = [newAddress(), newAddress()];
    await start();
    await mined(client, [await transfer(wallet, recipients[0]!, 10n), await transfer(wallet, recipients[1]!, 20n)]);
    const blockBefore = await client.getBlockNumber();

    expect(await wallet.replayJournal()).toEqual({ replayed: 0, reverted: [] });
    expect(await client.getBlockNumber()).toBe(blockBefore);
    expect(await nonceOf(client)).toBe(2);
    expect(await balances(client, recipients)).toEqual([10n, 20n]);
  }, 30_000);

  it('replays, through a new wallet and journal as after a process restart, what an earlier one journaled', async () => {
    const { start, client, wallet: journaledWallet, journalFile } = await sandbox('new-process');
    const recipients = [newAddress(), newAddress()];
    const node = await start();
    const first = journaledWallet();
    const hashes = [await transfer(first, recipients[0]!, 5n), await transfer(first, recipients[1]!, 6n)];
    await mined(client, hashes);
    await node.stop('SIGKILL');

    // Restarted on the same port and state file, as the product's supervisor does.
    await start();
    expect(await nonceOf(client)).toBe(0);
    const second = journaledWallet(openTransactionJournal({ file: journalFile }));
    expect(await second.replayJournal()).toEqual({ replayed: 2, reverted: [] });
    await mined(client, hashes);
    expect(await balances(client, recipients)).toEqual([5n, 6n]);
  }, 30_000);

  it('keeps a send under way when the node dies off the restarted node until the lost transactions are back', async () => {
    const { start, client, wallet: journaledWallet } = await sandbox('under-way');
    const wallet = journaledWallet();
    const [lostTo, lateTo] = [newAddress(), newAddress()];
    const node = await start();
    const lost = await transfer(wallet, lostTo, 7n);
    await mined(client, [lost]);
    await node.stop('SIGKILL');

    // A send already in the wallet's queue when the node died: its requests fail and are retried.
    // The product holds the wallet the moment it sees the node gone, restarts the node, replays.
    const late = transfer(wallet, lateTo, 8n);
    wallet.hold();
    await start();
    expect(await nonceOf(client)).toBe(0);
    expect(await wallet.replayJournal()).toEqual({ replayed: 1, reverted: [] });
    wallet.release();

    // The late send took the nonce after the lost one, not the lost one's: both are on chain.
    const lateHash = await late;
    await mined(client, [lost, lateHash]);
    expect(await balances(client, [lostTo, lateTo])).toEqual([7n, 8n]);
    expect(await nonceOf(client)).toBe(2);
  }, 30_000);

  it('does not replay a transaction the node refused, but does replay the one that took its nonce', async () => {
    const { start, client, wallet: journaledWallet, journalFile } = await sandbox('refused');
    const wallet = journaledWallet();
    const recipient = newAddress();
    const node = await start();
    // Below a transfer's intrinsic 21,000 gas: signed and journaled, then refused by the node.
    await expect(wallet.send((w) => w.sendTransaction({ to: recipient, value: 1n, gas: 20_000n }))).rejects.toThrow(/gas/i);
    expect(await wallet.replayJournal()).toEqual({ replayed: 0, reverted: [] });
    const accepted = await transfer(wallet, recipient, 2n);
    await mined(client, [accepted]);
    const lines = (await readFile(journalFile, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { kind: string; nonce?: number });
    expect(lines.map((line) => [line.kind, line.nonce])).toEqual([['transaction', 0], ['discard', undefined], ['transaction', 0]]);
    await node.stop('SIGKILL');

    // Restarted on the same port and state file, as the product's supervisor does.
    await start();
    expect(await wallet.replayJournal()).toEqual({ replayed: 1, reverted: [] });
    await mined(client, [accepted]);
    expect(await client.getBalance({ address: recipient })).toBe(2n);
    expect(await nonceOf(client)).toBe(1);
  }, 30_000);

  it('refuses to replay, sending nothing, when the journal misses the nonce the chain expects next', async () => {
    const { start, client, wallet: journaledWallet, journalFile } = await sandbox('gap');
    const journal = openTransactionJournal({ file: journalFile });
    // Nonces 1 and 2 without 0: the node would hold them forever, waiting for nonce 0.
    for (const nonce of [1, 2]) {
      await journal.record(await sender.signTransaction({ chainId: 84532, nonce, to: newAddress(), value: 1n, gas: 21_000n, maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 1n }), sender.address);
    }
    await start();
    await expect(journaledWallet(journal).replayJournal()).rejects.toThrow(JournalGapError);
    expect(await nonceOf(client)).toBe(0);
  }, 30_000);
});

describe('the transaction journal file', () => {
  const minutes = (count: number) => count * 60_000;
  const signed = (nonce: number) => sender.signTransaction({ chainId: 84532, nonce, to: sender.address, value: 1n, gas: 21_000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n });

  it('records the hash, sender and nonce of a raw transaction', async () => {
    const journal = openTransactionJournal({ file: join(directory, 'fields.ndjson') });
    const raw = await signed(3);
    const entry = await journal.record(raw, sender.address);
    expect(entry).toMatchObject({ raw, hash: keccak256(raw), from: sender.address, nonce: 3 });
    expect(Number.isNaN(Date.parse(entry.recordedAt))).toBe(false);
    expect(await journal.transactionsOf(sender.address)).toEqual([entry]);
    expect(await journal.transactionsOf(newAddress())).toEqual([]);
  });

  it('prunes only entries older than the retention, by rotating files instead of rewriting one', async () => {
    const file = join(directory, 'pruned.ndjson');
    const start = Date.parse('2026-01-01T00:00:00Z');
    let clock = start;
    const journal = openTransactionJournal({ file, retentionMs: minutes(10), now: () => new Date(clock) });
    const recordAt = async (minute: number, nonce: number) => {
      clock = start + minutes(minute);
      await journal.record(await signed(nonce), sender.address);
    };
    const nonces = async () => (await journal.transactionsOf(sender.address)).map((entry) => entry.nonce);

    await recordAt(0, 0);
    const afterFirst = await readFile(file, 'utf8');
    await recordAt(4, 1);
    // An append leaves what was written as it was.
    expect((await readFile(file, 'utf8')).startsWith(afterFirst)).toBe(true);
    await recordAt(10, 2);
    expect(await nonces()).toEqual([0, 1, 2]);
    await recordAt(15, 3);
    expect(await nonces()).toEqual([0, 1, 2, 3]);
    // Nonces 0 and 1 are 20 and 16 minutes old now; 2 and 3 are within the retention.
    await recordAt(20, 4);
    expect(await nonces()).toEqual([2, 3, 4]);
  });

  it('skips a line a crash cut short and keeps appending whole lines after it', async () => {
    const file = join(directory, 'torn.ndjson');
    const whole = await openTransactionJournal({ file }).record(await signed(0), sender.address);
    await appendFile(file, '{"kind":"transaction","hash":"0x12');
    const reopened = openTransactionJournal({ file });
    const next = await reopened.record(await signed(1), sender.address);
    expect(await reopened.transactionsOf(sender.address)).toEqual([whole, next]);
  });
});
