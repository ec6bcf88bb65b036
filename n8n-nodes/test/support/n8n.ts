/**
 * A real n8n for the tests, driven through its CLI as an operator would: n8n from the cache of
 * scripts/n8n.mjs, this package packed and installed the way n8n installs a community package,
 * credentials and workflows imported with `n8n import:*`, workflows run with `n8n execute`.
 * Everything stays offline: telemetry, templates, version checks, banners, AI features and the
 * community package registry are off, and n8n listens on 127.0.0.1 only.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ensureN8n } from '../../../scripts/n8n.mjs';
import { freePort } from '../../../scripts/lib.mjs';

const execFileAsync = promisify(execFile);
const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
const log = (message: string) => process.stderr.write(`[n8n test] ${message}\n`);

export interface N8nRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One item of a node's output: its JSON and, for files, the binary data's description. */
export interface ExecutionItem {
  json: Record<string, unknown>;
  binary?: Record<string, { mimeType: string; fileName?: string; fileSize?: string; id?: string }>;
}

/** What `n8n execute --rawOutput` prints: the execution's run data, by node name. */
export interface ExecutionResult {
  status: string;
  data: {
    resultData: {
      error?: { message: string; description?: string | null; httpCode?: string; context?: Record<string, unknown> };
      runData: Record<string, Array<{ data?: { main: Array<Array<ExecutionItem>> }; error?: { message: string } }>>;
    };
  };
}

export interface N8n {
  userFolder: string;
  run(args: string[], timeoutMs?: number): Promise<N8nRun>;
  importCredentials(credentials: object[]): Promise<void>;
  importWorkflows(workflows: object[]): Promise<void>;
  execute(workflowId: string): Promise<{ code: number | null; result: ExecutionResult; output: string }>;
  /** Runs n8n as a server (`n8n start`) with its owner set up, for triggers and activation. */
  serve(): Promise<N8nServer>;
  close(): void;
}

/** A running `n8n start`, driven through the REST API its editor uses, signed in as its owner. */
export interface N8nServer {
  /** Where n8n listens, and the base of its webhook URLs: `http://127.0.0.1:<port>`. */
  url: string;
  /** Activates (publishes) a workflow, as the editor's Publish does: its triggers register. */
  activate(workflowId: string): Promise<void>;
  /** Deactivates it: its triggers unregister. */
  deactivate(workflowId: string): Promise<void>;
  /** The workflow's executions, newest first. */
  executions(workflowId: string): Promise<Array<{ id: string; status: string; mode: string }>>;
  /** GETs one of n8n's paths as the signed-in owner, e.g. `/types/nodes.json`: the JSON it answers. */
  get<T>(path: string): Promise<T>;
  /** SIGTERM and wait for n8n to exit. */
  stop(): Promise<void>;
}

/** Packs the package as `npm publish` would, its prepack building dist/ first; returns the tarball's path. */
export async function packPackage(destination: string): Promise<string> {
  const { stdout } = await execFileAsync('npm', ['pack', '--json', '--pack-destination', destination], { cwd: PACKAGE_DIR });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string }>;
  return join(destination, packed!.filename);
}

/**
 * Installs the tarball the way an operator installs a community package without the UI:
 * `npm install <package>` in `<user folder>/.n8n/nodes`, where n8n loads `n8n-nodes-*` from
 * node_modules. Offline (the package has no dependencies), and with --legacy-peer-deps: n8n
 * brings n8n-workflow, and a second copy beside the package would be the one it loads.
 */
async function installCommunityPackage(userFolder: string, tarball: string): Promise<void> {
  const nodesDir = join(userFolder, '.n8n', 'nodes');
  mkdirSync(nodesDir, { recursive: true });
  writeFileSync(join(nodesDir, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2));
  await execFileAsync(
    'npm',
    ['install', tarball, '--offline', '--legacy-peer-deps', '--ignore-scripts', '--bin-links=false', '--package-lock=false', '--audit=false', '--fund=false'],
    { cwd: nodesDir },
  );
  const installed = JSON.parse(readFileSync(join(nodesDir, 'node_modules', 'n8n-nodes-purser', 'package.json'), 'utf8')) as { name: string };
  if (installed.name !== 'n8n-nodes-purser') throw new Error(`npm installed ${installed.name}`);
}

/** The last JSON document n8n printed: the lines from a line `{` to the last line `}`. */
export function lastJsonDocument(output: string): unknown {
  const lines = output.split('\n');
  const start = lines.indexOf('{');
  const end = lines.lastIndexOf('}');
  if (start === -1 || end < start) throw new Error(`no JSON document in the output:\n${output.slice(-4000)}`);
  return JSON.parse(lines.slice(start, end + 1).join('\n'));
}

/** n8n in a fresh user folder with the tarball installed as a community package. */
export async function startN8n(tarball: string): Promise<N8n> {
  const userFolder = mkdtempSync(join(tmpdir(), 'purser-n8n-'));
  await installCommunityPackage(userFolder, tarball);
  return startN8nIn(userFolder);
}

/**
 * n8n with `userFolder` as its user folder (HOME and N8N_USER_FOLDER): it loads what is installed
 * under `<userFolder>/.n8n/nodes`. close() deletes the folder.
 */
export async function startN8nIn(userFolder: string): Promise<N8n> {
  const bin = await ensureN8n({ log });
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: userFolder,
    N8N_USER_FOLDER: userFolder,
    N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
    DB_TYPE: 'sqlite',
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_PORT: String(port),
    // The trigger's URL as Purser must call it (Purser's sandbox lets webhooks reach loopback).
    WEBHOOK_URL: `http://127.0.0.1:${port}/`,
    N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
    N8N_RUNNERS_BROKER_PORT: String(await freePort()),
    N8N_PYTHON_ENABLED: 'false',
    // Nothing leaves the machine.
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_AI_ENABLED: 'false',
    N8N_DYNAMIC_BANNERS_ENABLED: 'false',
    N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
    N8N_VERIFIED_PACKAGES_ENABLED: 'false',
    N8N_REINSTALL_MISSING_PACKAGES: 'false',
    N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
    // `execute` prints its result through the logger at info.
    N8N_LOG_LEVEL: 'info',
    N8N_LOG_OUTPUT: 'console',
    N8N_BLOCK_ENV_ACCESS_IN_NODE: 'true',
  };
  const children = new Set<ReturnType<typeof spawn>>();

  const run = (args: string[], timeoutMs = 180_000) =>
    new Promise<N8nRun>((resolve, reject) => {
      const child = spawn(process.execPath, [bin, ...args], { cwd: userFolder, env, stdio: ['ignore', 'pipe', 'pipe'] });
      children.add(child);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('error', reject);
      child.on('close', (code) => {
        clearTimeout(timer);
        children.delete(child);
        resolve({ code, stdout, stderr });
      });
    });

  const importFile = async (command: string, documents: object[]) => {
    const file = join(userFolder, `${command.replace(':', '-')}.json`);
    writeFileSync(file, JSON.stringify(documents));
    const result = await run([command, '--input', file]);
    rmSync(file);
    if (result.code !== 0) throw new Error(`n8n ${command} exited with ${result.code}:\n${result.stdout}\n${result.stderr}`);
  };

  return {
    userFolder,
    run,
    importCredentials: (credentials) => importFile('import:credentials', credentials),
    importWorkflows: (workflows) => importFile('import:workflow', workflows),
    async execute(workflowId) {
      const { code, stdout, stderr } = await run(['execute', '--id', workflowId, '--rawOutput']);
      const output = `${stdout}\n${stderr}`;
      return { code, result: lastJsonDocument(stdout) as ExecutionResult, output };
    },
    serve: () => serveN8n(bin, { cwd: userFolder, env, url: `http://127.0.0.1:${port}`, children }),
    close() {
      for (const child of children) child.kill('SIGKILL');
      rmSync(userFolder, { recursive: true, force: true });
    },
  };
}

async function serveN8n(
  bin: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; url: string; children: Set<ReturnType<typeof spawn>> },
): Promise<N8nServer> {
  const child = spawn(process.execPath, [bin, 'start'], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  options.children.add(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => {
    options.children.delete(child);
    resolve(code);
  }));

  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`n8n start exited with ${child.exitCode}:\n${output.slice(-4000)}`);
    if (Date.now() > deadline) throw new Error(`n8n start did not answer /rest/settings:\n${output.slice(-4000)}`);
    // /healthz answers before the REST API is mounted; the editor's settings come with it. While
    // its database migrates (a first start), n8n answers every path 200 "n8n is starting up".
    const ready = await fetch(`${options.url}/rest/settings`).then(
      (response) => response.ok && (response.headers.get('content-type') ?? '').includes('json'),
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }

  // The editor's session: the owner's cookie, bound to a browser id sent with every call.
  const browserId = randomBytes(8).toString('hex');
  let cookie = '';
  const call = async <T>(method: string, path: string, body?: object): Promise<T> => {
    const response = await fetch(`${options.url}${path}`, {
      method,
      headers: { 'browser-id': browserId, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`n8n ${method} ${path} answered ${response.status}: ${text}`);
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) cookie = setCookie.split(';')[0]!;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new Error(`n8n ${method} ${path} answered ${response.status} with no JSON: ${text.slice(0, 2000)}`);
    }
  };
  const rest = async <T>(method: string, path: string, body?: object): Promise<T> => (await call<{ data: T }>(method, `/rest${path}`, body)).data;
  await rest('POST', '/owner/setup', { email: 'owner@example.test', firstName: 'Test', lastName: 'Owner', password: `Pw-${randomBytes(12).toString('hex')}` });

  return {
    url: options.url,
    async activate(workflowId) {
      const { versionId } = await rest<{ versionId: string }>('GET', `/workflows/${workflowId}`);
      const activated = await rest<{ active: boolean }>('POST', `/workflows/${workflowId}/activate`, { versionId });
      if (!activated.active) throw new Error(`workflow ${workflowId} did not activate`);
    },
    async deactivate(workflowId) {
      await rest('POST', `/workflows/${workflowId}/deactivate`, {});
    },
    async executions(workflowId) {
      const filter = encodeURIComponent(JSON.stringify({ workflowId }));
      const page = await rest<{ results: Array<{ id: string; status: string; mode: string }> }>('GET', `/executions?filter=${filter}`);
      return page.results;
    },
    get: (path) => call('GET', path),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The JSON of the items a node output in each of its runs, in order (a loop runs a node several times). */
export function nodeRuns(result: ExecutionResult, nodeName: string): Array<Array<Record<string, unknown>>> {
  const runs = result.data.resultData.runData[nodeName];
  if (!runs) throw new Error(`node "${nodeName}" did not run; ran: ${Object.keys(result.data.resultData.runData).join(', ')}`);
  return runs.map((run) => (run.data?.main[0] ?? []).map((item) => item.json));
}

/** Every item a node output in its first run, with its binary data's description. */
export function nodeItems(result: ExecutionResult, nodeName: string): ExecutionItem[] {
  const run = result.data.resultData.runData[nodeName]?.[0];
  if (!run) throw new Error(`node "${nodeName}" did not run; ran: ${Object.keys(result.data.resultData.runData).join(', ')}`);
  return run.data?.main[0] ?? [];
}

/** The JSON of every item a node output in its first run. */
export function nodeOutput(result: ExecutionResult, nodeName: string): Array<Record<string, unknown>> {
  return nodeItems(result, nodeName).map((item) => item.json);
}
