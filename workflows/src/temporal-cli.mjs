// Finds or provides the Temporal CLI (`temporal`), which runs the embedded workflow engine
// (`temporal server start-dev`, see dev-server.ts) for `npm start` and the temporal test layer.
//
// Plain Node ESM with builtins only: scripts/test.mjs imports this file by path before
// node_modules exists. Everything else takes ensureTemporalCli from @purser/workflows.
// `node scripts/temporal-cli.mjs` prints the binary's absolute path alone on stdout;
// progress goes to stderr.
//
// Resolution order, first working binary wins:
//   1. `temporal` on PATH
//   2. env TEMPORAL_CLI (an explicit path; an error when it does not work)
//   3. the cache: ${XDG_CACHE_HOME:-~/.cache}/purser/temporal-cli/v<version>/temporal
//   4. a build with Go (`go install`, or `go mod download` + `go build` when go install
//      refuses the module, e.g. because its go.mod has replace directives)
//   5. the official release archive from temporal.download

import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { accessSync, chmodSync, constants, cpSync, existsSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

/** The CLI version this project is tested with; the cache is keyed by it. */
export const TEMPORAL_CLI_VERSION = '1.5.1';
const GO_MODULE = 'github.com/temporalio/cli';

const defaultLog = (message) => process.stderr.write(`[temporal-cli] ${message}\n`);

/** Cache folder that holds one sub-folder per CLI version. */
export function temporalCliCacheRoot(env = process.env) {
  const cacheHome = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(cacheHome, 'purser', 'temporal-cli');
}

/**
 * Returns the absolute path of a working `temporal` binary, providing one when needed.
 * Idempotent: after the first success the cached binary is found in milliseconds.
 * `env` exists so tests can steer the lookup without touching process.env.
 */
export async function ensureTemporalCli({ log = defaultLog, env = process.env } = {}) {
  const onPath = findOnPath('temporal', env);
  if (onPath) {
    const version = await cliVersion(onPath);
    if (version) {
      log(`using temporal from PATH: ${onPath} (${version})`);
      return onPath;
    }
    log(`ignoring ${onPath} from PATH: \`--version\` failed`);
  }

  if (env.TEMPORAL_CLI) {
    const version = await cliVersion(env.TEMPORAL_CLI);
    if (!version) throw new Error(`TEMPORAL_CLI=${env.TEMPORAL_CLI} is not a working temporal binary (\`--version\` failed)`);
    log(`using TEMPORAL_CLI: ${env.TEMPORAL_CLI} (${version})`);
    return realpathSync(env.TEMPORAL_CLI);
  }

  const root = temporalCliCacheRoot(env);
  const versionDir = join(root, `v${TEMPORAL_CLI_VERSION}`);
  const cached = join(versionDir, 'temporal');
  if (await isPinnedVersion(cached, env)) return cached;

  // An earlier `GOBIN=<root> go install` leaves the binary unversioned at the root; adopt it
  // so every later run finds it under the versioned path.
  const unversioned = join(root, 'temporal');
  if (await isPinnedVersion(unversioned, env)) {
    mkdirSync(versionDir, { recursive: true });
    renameSync(unversioned, cached);
    log(`moved ${unversioned} to ${cached}`);
    return cached;
  }

  const failures = [];
  for (const [how, provide] of [
    ['go install', goInstall],
    ['go build', goModDownloadAndBuild],
    ['download', downloadRelease],
  ]) {
    if ((how === 'go install' || how === 'go build') && !findOnPath('go', env)) {
      failures.push(`${how}: no \`go\` on PATH`);
      continue;
    }
    // Each attempt writes into its own scratch folder and only a verified binary is renamed
    // into place, so an interrupted or concurrent run never leaves a half-written `temporal`.
    const scratch = join(root, `.tmp-${randomUUID()}`);
    mkdirSync(scratch, { recursive: true });
    try {
      const started = Date.now();
      log(`providing temporal v${TEMPORAL_CLI_VERSION} with ${how} ...`);
      const built = await provide({ scratch, env, log });
      if (!(await isPinnedVersion(built, env))) throw new Error(`the result does not report version ${TEMPORAL_CLI_VERSION}: ${await cliVersion(built)}`);
      mkdirSync(versionDir, { recursive: true });
      renameSync(built, cached);
      log(`temporal v${TEMPORAL_CLI_VERSION} ready at ${cached} (${how}, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
      return cached;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(`${how} failed: ${lastLines(message, 5)}`);
      failures.push(`${how}: ${lastLines(message, 5)}`);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  throw new Error(
    `could not provide the Temporal CLI v${TEMPORAL_CLI_VERSION}. Install it on PATH or set TEMPORAL_CLI.\n` +
      failures.map((failure) => `  - ${failure}`).join('\n'),
  );
}

// The release build's linker flags: stamp the version (`temporal --version`, the dev server's
// banner) and drop debug symbols (213 MB instead of 252 MB).
const LDFLAGS = `-ldflags=-s -w -X ${GO_MODULE}/temporalcli.Version=${TEMPORAL_CLI_VERSION}`;

async function goInstall({ scratch, env }) {
  await run('go', ['install', LDFLAGS, `${GO_MODULE}/cmd/temporal@v${TEMPORAL_CLI_VERSION}`], { env: { ...env, GOBIN: scratch } });
  return join(scratch, 'temporal');
}

async function goModDownloadAndBuild({ scratch, env }) {
  const { stdout } = await run('go', ['mod', 'download', '-json', `${GO_MODULE}@v${TEMPORAL_CLI_VERSION}`], { env });
  const moduleDir = JSON.parse(stdout).Dir;
  if (!moduleDir) throw new Error(`go mod download printed no Dir: ${stdout}`);
  // The module cache is read-only; building in place would fail as soon as go wants to write.
  const source = join(scratch, 'src');
  cpSync(moduleDir, source, { recursive: true });
  makeWritable(source);
  const output = join(scratch, 'temporal');
  await run('go', ['build', LDFLAGS, '-o', output, './cmd/temporal'], { cwd: source, env });
  return output;
}

async function downloadRelease({ scratch, log }) {
  const platform = { linux: 'linux', darwin: 'darwin' }[process.platform];
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch];
  if (!platform || !arch) throw new Error(`no release archive for ${process.platform}/${process.arch}`);
  const url = `https://temporal.download/cli/archive/v${TEMPORAL_CLI_VERSION}?platform=${platform}&arch=${arch}`;
  log(`downloading ${url}`);
  const response = await fetch(url, { signal: AbortSignal.timeout(120_000) });
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  const archive = join(scratch, 'temporal.tar.gz');
  writeFileSync(archive, Buffer.from(await response.arrayBuffer()));
  await run('tar', ['-xzf', archive, '-C', scratch, 'temporal']);
  return join(scratch, 'temporal');
}

/** `temporal --version` output (e.g. "temporal version 1.5.1 (Server 1.29.1, UI 2.42.1)"), or null when it does not run. */
function cliVersion(file) {
  return new Promise((resolve) => {
    execFile(file, ['--version'], { timeout: 15_000 }, (error, stdout) => resolve(error ? null : stdout.trim() || null));
  });
}

/**
 * True when `file` is the pinned CLI version. A plain `go install` (without our -ldflags)
 * reports "0.0.0-DEV"; its embedded Go build info still names the module version.
 */
async function isPinnedVersion(file, env) {
  if (!existsSync(file)) return false;
  const reported = /^temporal version (\S+)/.exec((await cliVersion(file)) ?? '')?.[1];
  if (reported === TEMPORAL_CLI_VERSION) return true;
  if (reported !== '0.0.0-DEV' || !findOnPath('go', env)) return false;
  const { stdout } = await run('go', ['version', '-m', file], { env }).catch(() => ({ stdout: '' }));
  const mainModule = stdout.split('\n').map((line) => line.trim().split(/\s+/)).find((fields) => fields[0] === 'mod');
  return mainModule?.[1] === GO_MODULE && mainModule[2] === `v${TEMPORAL_CLI_VERSION}`;
}

function findOnPath(name, env) {
  for (const folder of (env.PATH || '').split(delimiter)) {
    if (!folder) continue;
    const candidate = join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return realpathSync(candidate);
    } catch {
      // not here; keep looking
    }
  }
  return null;
}

function makeWritable(folder) {
  chmodSync(folder, 0o755);
  for (const name of readdirSync(folder, { recursive: true })) {
    const path = join(folder, name);
    chmodSync(path, statSync(path).isDirectory() ? 0o755 : 0o644);
  }
}

/** Runs a command to completion, collecting its output (go is chatty); rejects with that output when it fails. */
function run(command, args, { cwd, env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve({ stdout, stderr });
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}:\n${stderr || stdout}`));
    });
  });
}

function lastLines(text, count) {
  return text.trim().split('\n').slice(-count).join('\n');
}
