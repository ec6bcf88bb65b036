/**
 * The sandbox's chain process: a local anvil on 127.0.0.1, started with the npm-installed
 * binary and stopped by its PID. Anvil's own dev accounts (from `mnemonic`) hold ETH for gas.
 *
 * Parent death: on Linux anvil is started through `setpriv --pdeathsig SIGTERM` (util-linux, as
 * the Temporal dev server is), so it ends, writing its state file, whenever this process ends,
 * even by SIGKILL; otherwise it would keep the port the product's next start listens on. With
 * that guarantee anvil runs in a process group of its own: a terminal's Ctrl-C reaches only the
 * product, which stops anvil after the worker that talks to it. Without setpriv it stays in the
 * product's group, so a signal that kills the product reaches it too.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import type { ChildExit } from '../../../supervisor';

export interface AnvilOptions {
  chainId: number;
  mnemonic: string;
  /** 0 or unset: a free port. */
  port?: number;
  /** Loaded at start when it exists, written on stop, so balances survive restarts. */
  stateFile?: string;
}

export interface AnvilProcess {
  rpcUrl: string;
  pid: number;
  /** Resolves when anvil has ended, whether by stop() or on its own. */
  exited: Promise<ChildExit>;
  stop(): Promise<void>;
}

const SETPRIV = '/usr/bin/setpriv';

const READY_TIMEOUT_MS = 10_000;
/** How often a state file is also written while running, so a crashed server loses little. */
const STATE_INTERVAL_SECONDS = 10;

export async function startAnvil(options: AnvilOptions): Promise<AnvilProcess> {
  const port = options.port || (await findFreePort());
  const args = [
    '--host', '127.0.0.1',
    '--port', String(port),
    '--chain-id', String(options.chainId),
    '--mnemonic', options.mnemonic,
    '--silent',
    ...(options.stateFile ? ['--state', options.stateFile, '--state-interval', String(STATE_INTERVAL_SECONDS)] : []),
  ];
  // setpriv execs anvil, so the PID held here is anvil's own.
  const diesWithParent = existsSync(SETPRIV);
  const [command, commandArgs] = diesWithParent ? [SETPRIV, ['--pdeathsig', 'SIGTERM', '--', anvilBinary(), ...args]] : [anvilBinary(), args];
  const child = spawn(command, commandArgs, { stdio: ['ignore', 'ignore', 'pipe'], detached: diesWithParent });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // A server that exits without close() must not leave its chain running.
  const killOnExit = () => child.kill();
  process.on('exit', killOnExit);
  const exited = new Promise<ChildExit>((resolve) => {
    child.once('exit', (code, signal) => {
      process.off('exit', killOnExit);
      resolve({ code, signal, output: stderr.trim() });
    });
  });

  const rpcUrl = `http://127.0.0.1:${port}`;
  const stop = () => stopProcess(child);
  try {
    await waitUntilAnswering(rpcUrl, child, () => stderr);
  } catch (error) {
    await stop();
    throw error;
  }
  return { rpcUrl, pid: child.pid!, exited, stop };
}

/** The binary of the platform package that `@foundry-rs/anvil` installs as an optional dependency. */
function anvilBinary(): string {
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch as string];
  if (!arch) throw new Error(`anvil has no build for ${process.platform}/${process.arch}`);
  const packageJson = createRequire(import.meta.url).resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`);
  return join(dirname(packageJson), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
}

/** A loopback port free right now (for a server that must know its URL before it listens). */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitUntilAnswering(rpcUrl: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`anvil exited before answering on ${rpcUrl}: ${stderr().trim() || `exit code ${child.exitCode}`}`);
    }
    try {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`anvil did not answer on ${rpcUrl} within ${READY_TIMEOUT_MS} ms`);
}

/** SIGTERM lets anvil write its state file; SIGKILL follows if it does not exit in time. */
function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const forceKill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(forceKill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
