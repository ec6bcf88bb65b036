/**
 * A write-ahead journal of the raw signed transactions the sandbox chain's wallets broadcast, so
 * a sandbox anvil killed before it wrote its state file (it does so every few seconds) can be
 * given back the transactions it lost, with their original hashes: see SerialWallet.replayJournal.
 *
 * The file is newline-delimited JSON, only ever appended to. Besides transactions it holds
 * discards: a transaction the node refused is not to be replayed, since its sender was told it
 * failed (and the wallet reuses its nonce). Pruning rotates instead of rewriting: when the file's
 * first line is older than the retention, it becomes `<file>.1` (replacing the one before), so
 * every line younger than the retention is always in one of the two files, an appended line is
 * never rewritten, and the two files hold at most about twice the retention's lines.
 *
 * One journal object per file: it serialises its own writes, so wallets of several accounts may
 * share it, but two objects (or processes) appending to one file would race its rotation.
 */
import { open, readFile, rename } from 'node:fs/promises';
import { type Address, type Hex, isAddressEqual, keccak256, parseTransaction } from 'viem';

export interface JournalEntry {
  hash: Hex;
  from: Address;
  nonce: number;
  raw: Hex;
  recordedAt: string;
}

type JournalLine = ({ kind: 'transaction' } & JournalEntry) | { kind: 'discard'; hash: Hex; recordedAt: string };

export interface TransactionJournal {
  readonly file: string;
  /**
   * Durably appends a transaction `from` signed; call it before broadcasting the transaction.
   * The sender is the signing wallet's own address, not recovered from the signature again.
   */
  record(raw: Hex, from: Address): Promise<JournalEntry>;
  /** Marks a recorded transaction the node refused, so no replay resurrects it. */
  discard(hash: Hex): Promise<void>;
  /**
   * The sender's recorded transactions that were not discarded, in nonce order. Of two with one
   * nonce the later one counts: the wallet reuses a nonce only after the node refused the first.
   */
  transactionsOf(from: Address): Promise<JournalEntry[]>;
}

export interface TransactionJournalOptions {
  file: string;
  /** How long a line is surely kept. Anvil writes its state every 10 s; minutes leave a margin. */
  retentionMs?: number;
  /** The clock, so tests can age the journal. */
  now?: () => Date;
}

export const DEFAULT_JOURNAL_RETENTION_MS = 10 * 60_000;

export function openTransactionJournal({ file, retentionMs = DEFAULT_JOURNAL_RETENTION_MS, now = () => new Date() }: TransactionJournalOptions): TransactionJournal {
  const previousFile = `${file}.1`;
  // What appending needs to know of the current file, read once on first use.
  let state: Promise<{ firstRecordedAt: number | null; endsMidLine: boolean }> | undefined;
  let turn: Promise<unknown> = Promise.resolve();

  async function loadState() {
    const text = await readIfExists(file);
    const first = parseLines(text)[0];
    // A line cut short by a crash must not swallow the next one.
    return { firstRecordedAt: first ? Date.parse(first.recordedAt) : null, endsMidLine: text.length > 0 && !text.endsWith('\n') };
  }

  async function append(line: JournalLine): Promise<void> {
    const current = await (state ??= loadState());
    const at = Date.parse(line.recordedAt);
    if (current.firstRecordedAt !== null && at - current.firstRecordedAt >= retentionMs) {
      // Everything in the file replaced now was written before the current file began, which
      // was at least a retention ago.
      await rename(file, previousFile);
      Object.assign(current, { firstRecordedAt: null, endsMidLine: false });
    }
    const text = `${current.endsMidLine ? '\n' : ''}${JSON.stringify(line)}\n`;
    const handle = await open(file, 'a');
    try {
      current.endsMidLine = true; // until the write below is known to be complete
      await handle.write(text);
      // On disk before the transaction leaves: a crash of the machine loses no entry either.
      await handle.datasync();
      current.endsMidLine = false;
    } finally {
      await handle.close();
    }
    current.firstRecordedAt ??= at;
  }

  // Appends, rotations and reads take turns, so a read never falls between a rotation's two files.
  function serialized<T>(step: () => Promise<T>): Promise<T> {
    const done = turn.then(step);
    turn = done.catch(() => undefined);
    return done;
  }

  async function readLines(): Promise<JournalLine[]> {
    return parseLines(`${await readIfExists(previousFile)}\n${await readIfExists(file)}`);
  }

  return {
    file,
    async record(raw, from) {
      const { nonce } = parseTransaction(raw);
      if (nonce === undefined) throw new Error('A transaction without a nonce cannot be journaled');
      const entry: JournalEntry = {
        hash: keccak256(raw),
        from,
        nonce,
        raw,
        recordedAt: now().toISOString(),
      };
      await serialized(() => append({ kind: 'transaction', ...entry }));
      return entry;
    },
    discard: (hash) => serialized(() => append({ kind: 'discard', hash, recordedAt: now().toISOString() })),
    async transactionsOf(from) {
      const lines = await serialized(readLines);
      const discarded = new Set(lines.flatMap((line) => (line.kind === 'discard' ? [line.hash] : [])));
      const byNonce = new Map<number, JournalEntry>();
      for (const line of lines) {
        if (line.kind !== 'transaction' || discarded.has(line.hash) || !isAddressEqual(line.from, from)) continue;
        const { kind: _, ...entry } = line;
        byNonce.set(entry.nonce, entry);
      }
      return [...byNonce.values()].sort((a, b) => a.nonce - b.nonce);
    },
  };
}

async function readIfExists(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}

/** Lines this module wrote; a line cut short by a crash is skipped. */
function parseLines(text: string): JournalLine[] {
  return text.split('\n').flatMap((line) => {
    if (!line.trim()) return [];
    try {
      return [JSON.parse(line) as JournalLine];
    } catch {
      return [];
    }
  });
}
