// Finds Debian's Chromium for the Playwright specs (and other Debian tools the tests use),
// installing them with apt-get when this user may (CI and fresh machines run as root).
// Browsers are never downloaded by Playwright.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { log, runOrThrow } from './lib.mjs';

function which(command) {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The path of `command`, installing Debian's `debianPackage` with apt-get when it is missing
 * and this user may (CI and fresh machines run as root).
 */
export async function ensureDebianCommand(command, debianPackage = command) {
  const found = which(command);
  if (found && existsSync(found)) return found;
  if (process.getuid?.() !== 0 || !which('apt-get')) {
    throw new Error(`${command} is missing: install Debian's "${debianPackage}" package (apt-get install ${debianPackage}).`);
  }
  log(`installing ${debianPackage} from Debian (apt-get)...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await runOrThrow('apt-get', ['update', '-qq'], { env });
  await runOrThrow('apt-get', ['install', '-y', '-qq', '--no-install-recommends', debianPackage], { env });
  const installed = which(command);
  if (!installed) throw new Error(`apt-get installed ${debianPackage} but ${command} is not on PATH`);
  return installed;
}

export async function ensureChromium() {
  const configured = process.env.CHROMIUM_PATH;
  if (configured && existsSync(configured)) return configured;
  return which('chromium-browser') && !which('chromium') ? which('chromium-browser') : ensureDebianCommand('chromium');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${await ensureChromium()}\n`);
}
