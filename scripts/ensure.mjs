// Makes a checkout runnable: dependencies installed, Prisma client generated, web app and
// workflow bundle built. Each step is skipped when its output is newer than its inputs. The web
// build needs Chromium (the security whitepaper's PDF), which it installs first when missing.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureChromium } from './chromium.mjs';
import { log, ROOT, runOrThrow } from './lib.mjs';

const LOCK_STAMP = path.join(ROOT, 'node_modules', '.purser-lock-sha256');

function lockHash() {
  return createHash('sha256').update(readFileSync(path.join(ROOT, 'package-lock.json'))).digest('hex');
}

export async function ensureDependencies() {
  const hash = lockHash();
  const installed = existsSync(LOCK_STAMP) ? readFileSync(LOCK_STAMP, 'utf8').trim() : undefined;
  if (installed === hash) return;
  const fresh = !existsSync(path.join(ROOT, 'node_modules'));
  log(fresh ? 'installing dependencies (npm ci)...' : 'package-lock.json changed: updating dependencies...');
  // Optional dependencies carry platform binaries (esbuild, rolldown, anvil): never omit them.
  // npm's report goes to stderr: a command run through run-ts.mjs keeps stdout for its own output
  // (audit:verify's report, an invitation code), whatever had to be installed first.
  await runOrThrow('npm', [fresh ? 'ci' : 'install', '--include=optional', '--no-audit', '--no-fund'], { stdio: ['inherit', 2, 'inherit'] });
  writeFileSync(LOCK_STAMP, `${hash}\n`);
}

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'generated') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

function isStale(output, inputs) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return inputs.some((input) => newestMtime(path.join(ROOT, input)) > built);
}

export async function ensurePrismaClient() {
  const output = path.join(ROOT, 'prisma', 'src', 'generated', 'client.ts');
  if (!isStale(output, ['prisma/schema.prisma'])) return;
  log('generating the Prisma client...');
  await runOrThrow('npm', ['run', 'generate', '--silent', '-w', '@purser/db']);
}

const WEB_INPUTS = ['web/src', 'web/index.html', 'web/vite.config.ts', 'web/public', 'core/src', 'docs-content/security', 'docs-content/scripts'];
/**
 * What the web build writes: the pre-rendered landing page, the shell every other route gets, and
 * the whitepaper (its PDF is the part a failed print would leave out).
 */
const WEB_OUTPUTS = ['index.html', 'shell.html', 'security-whitepaper.md', 'security-whitepaper.pdf'];

export async function ensureWebBuild() {
  if (!WEB_OUTPUTS.some((file) => isStale(path.join(ROOT, 'web', 'dist', file), WEB_INPUTS))) return;
  // The build prints the security whitepaper to PDF with Debian's headless Chromium.
  const chromium = await ensureChromium();
  log('building the web app...');
  await runOrThrow('npm', ['run', 'build', '--silent', '-w', '@purser/web'], { env: { ...process.env, CHROMIUM_PATH: chromium } });
}

export async function ensureWorkflowBundle() {
  if (!isStale(path.join(ROOT, 'workflows', 'dist', 'workflow-bundle.js'), ['workflows/src', 'core/src'])) return;
  log('bundling the Temporal workflows...');
  await runOrThrow('npm', ['run', 'build', '--silent', '-w', '@purser/workflows']);
}

export async function ensureBuilt() {
  await ensurePrismaClient();
  await ensureWorkflowBundle();
  await ensureWebBuild();
}
