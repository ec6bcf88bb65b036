// Runs `temporal server start-dev` as a child process: the embedded workflow engine behind
// `npm start` and the temporal test layer. State lives in a SQLite file, so workflows
// survive restarts.
//
// Parent death: on Linux the child is started through `setpriv --pdeathsig SIGTERM`
// (util-linux), so the kernel signals it whenever this process ends, even by SIGKILL;
// setpriv execs the CLI, so the PID we hold is the server's own. With that guarantee the
// child runs in a process group of its own: a terminal's Ctrl-C reaches only this process,
// which stops its worker before the server it talks to. Where setpriv is missing (e.g.
// macOS) the child stays in our group, so a signal that kills us reaches it too, and an
// `exit` handler kills it on a normal exit.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { Connection } from '@temporalio/client';

export interface DevServerOptions {
  /** Absolute path of the `temporal` binary (ensureTemporalCli, temporal-cli.mjs). */
  cliPath: string;
  /** SQLite file holding the server's state; created when missing. */
  dbFile: string;
  /** Front-end gRPC port; 0 or omitted picks a free one. */
  port?: number;
  /** Web UI port; 0 or omitted runs without the UI. */
  uiPort?: number;
  /** Extra namespace to create at launch ("default" always exists). */
  namespace?: string;
  log?: (message: string) => void;
  /** How long to wait for the front end to answer. */
  startTimeoutMs?: number;
  /** Finds a free port (bind to 0, release). Tests hand in one that is wrong first. */
  findPort?: () => Promise<number>;
  /** HTTP API and metrics ports; 0 or omitted picks free ones. A restart passes the first start's. */
  httpPort?: number;
  metricsPort?: number;
  /** Ports the caller is about to listen on itself: never picked for the server's own. */
  avoidPorts?: number[];
  /** The server's environment; this process's when omitted. */
  env?: NodeJS.ProcessEnv;
  /**
   * More dynamic config values (`--dynamic-config-value key=value`): a test that needs the
   * server's limits small, e.g. `limit.historyCount.suggestContinueAsNew` so a run is told to
   * continue as new after a few dozen events instead of thousands.
   */
  dynamicConfig?: Record<string, string | number | boolean>;
}

/** How a process ended: its exit code, or the signal that ended it, and the last it wrote. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The tail of its output, for whoever reports an unexpected end (the product's supervisor). */
  output: string;
}

export interface DevServer {
  /** host:port for Connection.connect / NativeConnection.connect. */
  address: string;
  /** Web UI URL, or '' when running headless. */
  uiUrl: string;
  /**
   * Every port it listens on: gRPC front end, UI, HTTP API (which can signal workflows) and
   * metrics. The product keeps its own outbound requests away from all of them.
   */
  ports: number[];
  /** The same ports by role, so a restart can listen where the first start did. */
  portsByRole: { grpc: number; ui: number; http: number; metrics: number };
  pid: number;
  /** Resolves when the process has ended, whether by stop() or on its own. */
  exited: Promise<ProcessExit>;
  /** SIGTERM, then SIGKILL after a grace period; resolves once the process is gone. Idempotent. */
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
const SETPRIV = '/usr/bin/setpriv';
const STOP_GRACE_MS = 10_000;
const OUTPUT_TAIL_LINES = 40;

/** Starts on fresh ports again when the CLI lost one of them to another process meanwhile. */
const START_ATTEMPTS = 3;
/** How often a free port is looked for again when the one found is already chosen. */
const PICK_ATTEMPTS = 10;

export async function startTemporalDevServer(options: DevServerOptions): Promise<DevServer> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(options);
    } catch (error) {
      // The ports are found free, released, then handed to the CLI, which also picks ports of
      // its own for its internal services: two picks can meet, and the loser exits with
      // "address already in use". Nothing was served yet, so starting again is safe.
      if (attempt >= START_ATTEMPTS || !(error instanceof Error) || !error.message.includes('address already in use')) throw error;
      (options.log ?? (() => {}))(`temporal dev server lost a port to another process (attempt ${attempt}); starting again on fresh ports`);
    }
  }
}

async function startOnce({
  cliPath,
  dbFile,
  port = 0,
  uiPort = 0,
  namespace = 'default',
  log = () => {},
  startTimeoutMs = 60_000,
  findPort = findFreePort,
  httpPort: givenHttpPort = 0,
  metricsPort: givenMetricsPort = 0,
  avoidPorts = [],
  env,
  dynamicConfig = {},
}: DevServerOptions): Promise<DevServer> {
  // A free port is found by binding to port 0 and releasing it; another process could take
  // it in between, and startTemporalDevServer then starts again. It may also be one already
  // chosen (a restart hands in the first start's ports, the caller names its own), free until
  // the CLI and the caller bind them: those are looked for again.
  const chosen = new Set([port, uiPort, givenHttpPort, givenMetricsPort, ...avoidPorts].filter(Boolean));
  const pick = async (given: number) => {
    if (given) return given;
    for (let tries = 1; ; tries += 1) {
      const found = await findPort();
      if (!chosen.has(found)) {
        chosen.add(found);
        return found;
      }
      if (tries >= PICK_ATTEMPTS) throw new Error(`no free port apart from ${[...chosen].join(', ')} after ${tries} tries`);
    }
  };
  const grpcPort = await pick(port);
  const address = `${HOST}:${grpcPort}`;
  // Chosen here rather than left to the CLI, so they are known (and fenced off) too.
  const httpPort = await pick(givenHttpPort);
  const metricsPort = await pick(givenMetricsPort);
  const args = [
    'server', 'start-dev', '--db-filename', dbFile, '--port', String(grpcPort), '--ip', HOST, '--log-level', 'warn',
    '--http-port', String(httpPort), '--metrics-port', String(metricsPort),
    // Eager activity execution: a worker that completes a workflow task and has a free slot is
    // handed the activities that task scheduled in the same answer, instead of polling for
    // them. It halves a regular activity's latency (a payment runs three). Production clusters
    // set the same dynamic config key (docs/payments.md).
    '--dynamic-config-value', 'system.enableActivityEagerExecution=true',
  ];
  for (const [key, value] of Object.entries(dynamicConfig)) args.push('--dynamic-config-value', `${key}=${JSON.stringify(value)}`);
  args.push(...(uiPort ? ['--ui-port', String(uiPort)] : ['--headless']));
  if (namespace !== 'default') args.push('--namespace', namespace);

  const diesWithParent = existsSync(SETPRIV);
  const [command, commandArgs] = diesWithParent ? [SETPRIV, ['--pdeathsig', 'SIGTERM', '--', cliPath, ...args]] : [cliPath, args];
  const startedAt = Date.now();
  const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'], detached: diesWithParent, env });

  const output: string[] = [];
  const collect = (chunk: Buffer) => {
    output.push(...chunk.toString().split('\n').filter(Boolean));
    output.splice(0, Math.max(0, output.length - OUTPUT_TAIL_LINES));
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const outputTail = () => (output.length ? output.join('\n') : '(no output)');

  const exited = new Promise<ProcessExit>((resolve) => {
    child.on('exit', (code, signal) => {
      process.off('exit', killOnExit);
      resolve({ code, signal, output: outputTail() });
    });
  });
  const spawnFailed = new Promise<never>((_, reject) => child.on('error', reject));
  spawnFailed.catch(() => {}); // reported through the race below; later errors need no handler
  const hasExited = () => child.exitCode !== null || child.signalCode !== null;
  const killOnExit = () => child.kill('SIGKILL');
  process.on('exit', killOnExit);

  const stop = async () => {
    if (child.pid === undefined) return; // never started
    if (hasExited()) {
      await exited;
      return;
    }
    child.kill('SIGTERM');
    if (!(await settlesWithin(exited, STOP_GRACE_MS))) {
      log(`temporal dev server (pid ${child.pid}) ignored SIGTERM for ${STOP_GRACE_MS} ms; sending SIGKILL`);
      child.kill('SIGKILL');
      await exited;
    }
  };

  try {
    await Promise.race([waitUntilServing({ address, namespace, deadline: startedAt + startTimeoutMs, hasExited }), spawnFailed]);
  } catch (error) {
    await stop();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`temporal dev server did not start at ${address} (${cliPath} ${args.join(' ')}): ${reason}\n--- output tail ---\n${outputTail()}`, {
      cause: error,
    });
  }

  const uiUrl = uiPort ? `http://${HOST}:${uiPort}` : '';
  log(`temporal dev server ready at ${address}${uiUrl ? `, UI ${uiUrl}` : ''} in ${Date.now() - startedAt} ms (pid ${child.pid})`);
  return {
    address,
    uiUrl,
    ports: [grpcPort, ...(uiPort ? [uiPort] : []), httpPort, metricsPort],
    portsByRole: { grpc: grpcPort, ui: uiPort, http: httpPort, metrics: metricsPort },
    pid: child.pid!,
    exited,
    stop,
  };
}

/** Polls the front end with a cheap call until the namespace is served. */
async function waitUntilServing({ address, namespace, deadline, hasExited }: { address: string; namespace: string; deadline: number; hasExited: () => boolean }) {
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (hasExited()) throw new Error('the process exited before it was ready');
    try {
      // No retry interceptors: this loop retries on its own, faster than the SDK's backoff.
      const connection = await Connection.connect({ address, connectTimeout: 1_000, interceptors: [] });
      try {
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no answer within the deadline; last error: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Whether `promise` settles within `ms` (its rejection counts, and is thrown). */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
