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

/** What `n8n execute --rawOutput` prints: the execution's run data, by node name. */
export interface ExecutionResult {
  status: string;
  data: {
    resultData: {
      error?: { message: string; description?: string | null; httpCode?: string; context?: Record<string, unknown> };
      runData: Record<string, Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }>> }; error?: { message: string } }>>;
    };
  };
}

export interface N8n {
  userFolder: string;
  run(args: string[], timeoutMs?: number): Promise<N8nRun>;
  importCredentials(credentials: object[]): Promise<void>;
  importWorkflows(workflows: object[]): Promise<void>;
  execute(workflowId: string): Promise<{ code: number | null; result: ExecutionResult; output: string }>;
  close(): void;
}

/** Builds the package and packs it, as `npm publish` would; returns the tarball's path. */
export async function packPackage(destination: string): Promise<string> {
  await execFileAsync(process.execPath, [join(PACKAGE_DIR, 'scripts', 'build.mjs')], { cwd: PACKAGE_DIR });
  const { stdout } = await execFileAsync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], { cwd: PACKAGE_DIR });
  const [packed] = JSON.parse(stdout) as Array<{ filename: string }>;
  return join(destination, packed!.filename);
}

/**
 * Installs the tarball under `<user folder>/.n8n/nodes` the way n8n's community package
 * service does (npm pack, untar into node_modules, drop dev and peer dependencies, record it in
 * the folder's package.json); the package has no dependencies, so its `npm install` is a no-op.
 */
async function installCommunityPackage(userFolder: string, tarball: string): Promise<void> {
  const nodesDir = join(userFolder, '.n8n', 'nodes');
  const packageDir = join(nodesDir, 'node_modules', 'n8n-nodes-purser');
  mkdirSync(packageDir, { recursive: true });
  await execFileAsync('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);
  const manifestPath = join(packageDir, 'package.json');
  const { devDependencies: _dev, peerDependencies: _peer, optionalDependencies: _optional, ...manifest } = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  writeFileSync(
    join(nodesDir, 'package.json'),
    JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { 'n8n-nodes-purser': manifest.version } }, null, 2),
  );
}

/** The last JSON document n8n printed: the lines from a line `{` to the last line `}`. */
export function lastJsonDocument(output: string): unknown {
  const lines = output.split('\n');
  const start = lines.indexOf('{');
  const end = lines.lastIndexOf('}');
  if (start === -1 || end < start) throw new Error(`no JSON document in the output:\n${output.slice(-4000)}`);
  return JSON.parse(lines.slice(start, end + 1).join('\n'));
}

export async function startN8n(tarball: string): Promise<N8n> {
  const bin = await ensureN8n({ log });
  const userFolder = mkdtempSync(join(tmpdir(), 'purser-n8n-'));
  await installCommunityPackage(userFolder, tarball);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: userFolder,
    N8N_USER_FOLDER: userFolder,
    N8N_ENCRYPTION_KEY: randomBytes(24).toString('hex'),
    DB_TYPE: 'sqlite',
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_PORT: String(await freePort()),
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
    close() {
      for (const child of children) child.kill('SIGKILL');
      rmSync(userFolder, { recursive: true, force: true });
    },
  };
}

/** The JSON of every item a node output in its first run. */
export function nodeOutput(result: ExecutionResult, nodeName: string): Array<Record<string, unknown>> {
  const run = result.data.resultData.runData[nodeName]?.[0];
  if (!run) throw new Error(`node "${nodeName}" did not run; ran: ${Object.keys(result.data.resultData.runData).join(', ')}`);
  return (run.data?.main[0] ?? []).map((item) => item.json);
}
