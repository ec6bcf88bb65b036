// Small helpers shared by the plain-node scripts (they run before node_modules exists,
// so only Node builtins here).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function log(message) {
  process.stderr.write(`[purser] ${message}\n`);
}

/**
 * Runs a command with inherited stdio; resolves with its exit code (never rejects on failure).
 * With `prefix`, each line of its output is written with that prefix, so that two commands
 * running side by side can be told apart in one log.
 */
export function run(command, args, { prefix, ...options } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit', ...options });
    if (prefix) {
      prefixLines(child.stdout, process.stdout, prefix);
      prefixLines(child.stderr, process.stderr, prefix);
    }
    child.on('error', reject);
    // A grandchild left running may hold the pipes open: the output has two seconds to drain.
    const closed = new Promise((done) => child.on('close', done));
    child.on('exit', (code, signal) => {
      const exitCode = code ?? (signal ? 128 : 1);
      if (!prefix) return resolve(exitCode);
      void Promise.race([closed, new Promise((done) => setTimeout(done, 2_000))]).then(() => resolve(exitCode));
    });
  });
}

function prefixLines(from, to, prefix) {
  let partial = '';
  from.setEncoding('utf8');
  from.on('data', (chunk) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop();
    for (const line of lines) to.write(`${prefix} ${line}\n`);
  });
  from.on('end', () => {
    if (partial) to.write(`${prefix} ${partial}\n`);
  });
}

export async function runOrThrow(command, args, options = {}) {
  const code = await run(command, args, options);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`);
}

/**
 * Free ports, all different: each is held until every one is found, then all are released.
 *
 * They are chosen below the kernel's ephemeral range: a port from that range (what listen(0)
 * gives) may be taken by the local end of any outgoing connection in the time between being
 * found and being listened on (CI: EADDRINUSE on a port found this way while a test's Temporal
 * worker was connecting). Ports below the range are only ever taken by a listener.
 */
export async function freePorts(count) {
  const servers = [];
  const [low, high] = portsBelowEphemeral();
  try {
    for (let i = 0; i < count; i += 1) {
      const server = createServer();
      servers.push(server);
      await listenOnSomeFreePort(server, low, high);
    }
    return servers.map((server) => server.address().port);
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(() => resolve()))));
  }
}

/** [low, high): the ports below the ephemeral range, from 10000 up (or none where the range is unknown or starts low). */
function portsBelowEphemeral() {
  try {
    const [start] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    return Number.isInteger(start) && start > 12_000 ? [10_000, start] : [0, 0];
  } catch {
    return [0, 0];
  }
}

async function listenOnSomeFreePort(server, low, high) {
  for (let attempt = 0; attempt < 50 && high > low; attempt += 1) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await tryListen(server, port)) return;
  }
  if (!(await tryListen(server, 0))) throw new Error('no free port on 127.0.0.1');
}

function tryListen(server, port) {
  return new Promise((resolve) => {
    const onError = () => resolve(false);
    server.once('error', onError);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      resolve(true);
    });
  });
}

export async function freePort() {
  const [port] = await freePorts(1);
  return port;
}
