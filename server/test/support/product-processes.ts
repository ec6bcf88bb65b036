/**
 * The product run as real processes, as an operator runs it: `server/src/main.ts` started with
 * an environment, waited for until it prints "Purser is running.", killed or stopped by its PID.
 * Each process's output is kept in memory (a bounded tail) so a failing test can print it.
 * The embedded children of a process (the Temporal dev server, the sandbox chain's anvil) are
 * found through /proc, so a test can kill one of them as a crash would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const SERVER_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Lines kept per process: enough for the minutes around a failure, bounded for long suites. */
const TAIL_LINES = 4_000;
const READY_LINE = 'Purser is running.';
const START_TIMEOUT_MS = 90_000;

/**
 * Every line each product process wrote, tagged with its name and PID, for a failed test's
 * report; with `file`, also every line in that file (the tail kept here is bounded).
 */
export class ProcessLogs {
  private readonly lines: string[] = [];
  /** Each stream's unfinished last line: output arrives in chunks that may end mid-line. */
  private readonly partial = new Map<string, string>();

  constructor(private readonly file?: string) {}

  add(tag: string, chunk: string, options: { flush?: boolean } = {}): void {
    const pieces = `${this.partial.get(tag) ?? ''}${chunk}`.split('\n');
    this.partial.set(tag, options.flush ? '' : pieces.pop()!);
    const lines = pieces.filter((line) => line.trim() !== '').map((line) => `[${tag}] ${line}`);
    if (this.file) appendFileSync(this.file, lines.map((line) => `${line}\n`).join(''));
    this.lines.push(...lines);
    if (this.lines.length > TAIL_LINES) this.lines.splice(0, this.lines.length - TAIL_LINES);
  }

  /** A note of the test's own (a kill, a restart) between the processes' lines. */
  note(message: string): void {
    this.add('test', `${new Date().toISOString()} ${message}`, { flush: true });
  }

  tail(count = 600): string {
    return this.lines.slice(-count).join('\n');
  }

  /** Lines matching `pattern`, e.g. the supervisor's restart lines. */
  matching(pattern: RegExp): string[] {
    return this.lines.filter((line) => pattern.test(line));
  }
}

export interface ProductProcess {
  name: string;
  pid: number;
  /** Resolves when the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL: the process dies wherever it is, as a crashed machine would. Resolves once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the clean exit. */
  stop(): Promise<void>;
}

export interface ProductCommand {
  /** The program and its arguments, e.g. ['npm', 'run', 'start:worker']. */
  argv: string[];
  /** Where it runs: the repository's root for npm scripts and the images' CMD. */
  cwd: string;
}

/**
 * Starts `node --import tsx src/main.ts` in server/ (or `command`) with `env` on top of this
 * process's environment, and resolves once it printed "Purser is running.". `onCrash` hears of
 * an exit that neither kill() nor stop() asked for. A `command` runs in a process group of its
 * own, signalled whole: `npm run` keeps npm between the test and the product's process.
 */
export async function startProduct(
  name: string,
  env: Record<string, string>,
  logs: ProcessLogs,
  onCrash?: (detail: string) => void,
  command?: ProductCommand,
): Promise<ProductProcess> {
  const [program, ...args] = command?.argv ?? [process.execPath, '--import', 'tsx', 'src/main.ts'];
  const child: ChildProcess = spawn(program!, args, {
    cwd: command?.cwd ?? SERVER_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: command !== undefined,
  });
  const send = (signal: NodeJS.Signals) => (command ? process.kill(-child.pid!, signal) : child.kill(signal));
  const tag = `${name} ${child.pid}`;
  let ended = false;
  let running = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      logs.add(`${tag} out`, '', { flush: true });
      logs.add(`${tag} err`, '', { flush: true });
      logs.add(tag, `exited with ${signal ?? `code ${code}`}`, { flush: true });
      if (running && !ended) onCrash?.(`${name} (pid ${child.pid}) exited by itself with ${signal ?? `code ${code}`}`);
      resolve({ code, signal });
    });
  });
  let stdout = '';
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not print "${READY_LINE}" within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      logs.add(`${tag} out`, text);
      stdout += text;
      if (stdout.includes(READY_LINE)) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${signal ?? `code ${code}`} before it was running`));
    });
  });
  child.stderr!.on('data', (chunk: Buffer) => logs.add(`${tag} err`, chunk.toString()));
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const product: ProductProcess = {
    name,
    pid: child.pid!,
    exited,
    async kill() {
      ended = true;
      if (!gone()) send('SIGKILL');
      await exited;
    },
    async stop() {
      ended = true;
      if (!gone()) send('SIGTERM');
      await exited;
    },
  };
  try {
    await ready;
  } catch (error) {
    await product.kill();
    throw error;
  }
  running = true;
  return product;
}

/** The direct children of `pid` (its main thread's), from /proc. */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

export interface EmbeddedChildren {
  /** `temporal server start-dev`. */
  temporal?: number;
  /** The sandbox chain. */
  anvil?: number;
}

/** The product's embedded Temporal dev server and anvil, direct children of its process. */
export function embeddedChildren(productPid: number): EmbeddedChildren {
  const found: EmbeddedChildren = {};
  for (const pid of childrenOf(productPid)) {
    const argv = commandLine(pid);
    const program = argv[0]?.split('/').pop() ?? '';
    if (program === 'temporal' && argv.includes('start-dev')) found.temporal = pid;
    else if (program === 'anvil') found.anvil = pid;
  }
  return found;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie (ended, not yet reaped by its parent) is gone for our purposes.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits until every PID in `pids` has ended; answers those still alive after `timeoutMs`. */
export async function waitForExit(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = pids.filter(isAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await sleep(50);
    alive = alive.filter(isAlive);
  }
  return alive;
}

/** Polls `probe` until it answers a value, or throws what it last threw once `timeoutMs` passed. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() >= deadline) throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (last error: ${String(last)})` : ''}`);
    await sleep(intervalMs);
  }
}
