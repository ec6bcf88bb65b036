// Finds or installs n8n for the n8n-nodes integration test (a real n8n that loads the
// `n8n-nodes-purser` package), and n8n's community-node tools for its lint. They are test and
// lint tools, not dependencies of the product: they live in a cache outside the repository,
// so their gigabytes never enter the lockfile or node_modules.
//
// Plain Node ESM with builtins only, like scripts/temporal-cli.mjs.
// `node scripts/n8n.mjs` prints the absolute path of n8n's bin script alone on stdout (run it
// with `node <path> ...`); `node scripts/n8n.mjs node-cli` prints the folder holding
// @n8n/node-cli. Progress goes to stderr.
//
// Resolution order for n8n, first working install wins:
//   1. env N8N_INSTALL_DIR (an explicit folder holding node_modules/n8n; an error when it
//      does not hold the pinned version)
//   2. the cache: ${XDG_CACHE_HOME:-~/.cache}/purser/n8n/<version>
//   3. `npm install n8n@<version>` from the npm registry into a scratch folder, renamed into
//      the cache only when complete
// The node CLI follows 2 and 3 under ${XDG_CACHE_HOME:-~/.cache}/purser/n8n-node-cli/<version>.

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDebianCommand } from './chromium.mjs';

/**
 * The n8n version the tests run against: the last release whose dependencies install on
 * Node 20 (later ones require Node 24).
 */
export const N8N_VERSION = '2.8.4';

/**
 * n8n's tools for community node packages: `n8n-node lint` (@n8n/node-cli) and the static
 * analysis behind n8n's verification (@n8n/scan-community-package), with the ESLint the lint
 * runs. They cannot live in the repository's node_modules: every @n8n/node-cli release depends
 * (through @n8n/ai-node-sdk) on an n8n-workflow whose isolated-vm only builds on Node 22+,
 * which only an `overrides` entry in the installing root avoids.
 */
export const N8N_NODE_CLI_VERSION = '0.48.3';
const SCAN_COMMUNITY_PACKAGE_VERSION = '0.32.0';

const TOOLS = {
  n8n: {
    version: N8N_VERSION,
    dependencies: { n8n: N8N_VERSION },
    // n8n 2.8.4 depends on `xlsx` from SheetJS's own CDN, which is not the npm registry; the
    // same release is republished on npm as @e965/xlsx.
    overrides: { xlsx: 'npm:@e965/xlsx@0.20.3' },
    size: 'a few minutes, ~2.3 GB',
    entry: ['node_modules', 'n8n', 'bin', 'n8n'],
  },
  'n8n-node-cli': {
    version: N8N_NODE_CLI_VERSION,
    dependencies: {
      '@n8n/node-cli': N8N_NODE_CLI_VERSION,
      '@n8n/scan-community-package': SCAN_COMMUNITY_PACKAGE_VERSION,
      // The ESLint `n8n-node lint` was released with; it runs the one in node_modules/.bin.
      eslint: '9.29.0',
      typescript: '5.9.3',
      'n8n-workflow': '2.8.0',
    },
    // n8n-workflow 2.8.0 is what n8n 2.8.4 runs, and it needs no isolated-vm.
    overrides: { 'n8n-workflow': '2.8.0' },
    size: 'about 2 minutes, ~550 MB',
    entry: ['node_modules', '@n8n', 'node-cli', 'bin', 'n8n-node.mjs'],
  },
};

/** What node-gyp needs to build a native module: [command, Debian package]. */
const BUILD_TOOLS = [
  ['python3', 'python3'],
  ['make', 'make'],
  ['g++', 'g++'],
];

// Marks an install that finished; a folder without it is never trusted.
const COMPLETE_MARKER = '.purser-install-complete';

const defaultLog = (message) => process.stderr.write(`[n8n] ${message}\n`);

/** Cache folder that holds one sub-folder per version of `tool` (n8n, n8n-node-cli). */
export function n8nCacheRoot(env = process.env, tool = 'n8n') {
  const cacheHome = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(cacheHome, 'purser', tool);
}

/** The version of `name` installed in `folder`'s node_modules, or null. */
function installedVersion(folder, name) {
  try {
    return JSON.parse(readFileSync(join(folder, 'node_modules', name, 'package.json'), 'utf8')).version ?? null;
  } catch {
    return null;
  }
}

function isCompleteInstall(folder, tool) {
  return (
    existsSync(join(folder, COMPLETE_MARKER)) &&
    Object.entries(tool.dependencies).every(([name, version]) => installedVersion(folder, name) === version) &&
    existsSync(join(folder, ...tool.entry))
  );
}

/**
 * Returns the absolute path of n8n's bin script (run it with `node`), installing n8n into the
 * cache when needed. Idempotent: after the first success (~3 min, ~2.3 GB) it answers in
 * milliseconds. `env` exists so tests can steer the lookup without touching process.env.
 */
export async function ensureN8n({ log = defaultLog, env = process.env } = {}) {
  if (env.N8N_INSTALL_DIR) {
    const version = installedVersion(env.N8N_INSTALL_DIR, 'n8n');
    if (version !== N8N_VERSION) {
      throw new Error(`N8N_INSTALL_DIR=${env.N8N_INSTALL_DIR} holds n8n ${version ?? '(none)'}, not ${N8N_VERSION}`);
    }
    log(`using N8N_INSTALL_DIR: ${env.N8N_INSTALL_DIR} (n8n ${version})`);
    return realpathSync(join(env.N8N_INSTALL_DIR, ...TOOLS.n8n.entry));
  }
  return join(await ensureTool('n8n', { log, env }), ...TOOLS.n8n.entry);
}

/**
 * Returns the folder holding @n8n/node-cli, @n8n/scan-community-package and their ESLint in
 * node_modules, installing them into the cache when needed (idempotent, like ensureN8n).
 */
export async function ensureN8nNodeCli({ log = defaultLog, env = process.env } = {}) {
  return ensureTool('n8n-node-cli', { log, env });
}

async function ensureTool(name, { log, env }) {
  const tool = TOOLS[name];
  const root = n8nCacheRoot(env, name);
  const versionDir = join(root, tool.version);
  if (isCompleteInstall(versionDir, tool)) return versionDir;

  // A folder without the marker is an interrupted install from before; start over.
  if (existsSync(versionDir)) {
    log(`removing incomplete install at ${versionDir}`);
    rmSync(versionDir, { recursive: true, force: true });
  }

  // Install into a scratch folder and rename it into place when it is complete, so an
  // interrupted or concurrent run never leaves a half-installed tool at the cached path.
  // node_modules/.bin links are relative, so the tree survives the rename.
  const scratch = join(root, `.tmp-${randomUUID()}`);
  mkdirSync(scratch, { recursive: true });
  const started = Date.now();
  try {
    writeFileSync(
      join(scratch, 'package.json'),
      `${JSON.stringify({ name: `purser-${name}-cache`, private: true, dependencies: tool.dependencies, overrides: tool.overrides }, null, 2)}\n`,
    );
    // `yes=true`: these packages' install and commands run `npm exec`/`npx`, which would
    // otherwise prompt and hang without a terminal.
    writeFileSync(join(scratch, '.npmrc'), 'yes=true\nfund=false\naudit=false\nupdate-notifier=false\n');
    // n8n's sqlite3 compiles from source here: its prebuilt binary is downloaded from GitHub.
    if (name === 'n8n') for (const [command, debianPackage] of BUILD_TOOLS) await ensureDebianCommand(command, debianPackage);
    log(`installing ${name} ${tool.version} from npm into ${versionDir} (first run only: ${tool.size}) ...`);
    await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: scratch, env: { ...env, npm_config_yes: 'true' } });
    writeFileSync(join(scratch, COMPLETE_MARKER), `${new Date().toISOString()}\n`);
    if (!isCompleteInstall(scratch, tool)) throw new Error(`npm install finished but ${name} ${tool.version} is not complete in ${scratch}`);
    try {
      renameSync(scratch, versionDir);
    } catch (error) {
      // Another run finished first: use its install.
      if (!isCompleteInstall(versionDir, tool)) throw error;
      log(`another run installed ${name} first; using its install`);
    }
    log(`${name} ${tool.version} ready at ${versionDir} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
    return versionDir;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Runs a command to completion, collecting its output; rejects with the output's tail when it fails. */
function run(command, args, { cwd, env } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk) => {
      output = (output + chunk).slice(-20_000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}:\n${output.trim().split('\n').slice(-15).join('\n')}`));
    });
  });
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  (process.argv[2] === 'node-cli' ? ensureN8nNodeCli() : ensureN8n()).then(
    (path) => process.stdout.write(`${path}\n`),
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.message : error}\n`);
      process.exitCode = 1;
    },
  );
}
