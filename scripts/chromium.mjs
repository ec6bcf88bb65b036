// Finds Debian's Chromium for the Playwright specs, installing it with apt-get when this
// user may (CI and fresh machines run as root). Browsers are never downloaded by Playwright.
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

export async function ensureChromium() {
  const found = process.env.CHROMIUM_PATH ?? which('chromium') ?? which('chromium-browser');
  if (found && existsSync(found)) return found;
  if (process.getuid?.() !== 0 || !which('apt-get')) {
    throw new Error('Chromium is missing: install Debian\'s "chromium" package (apt-get install chromium) or set CHROMIUM_PATH.');
  }
  log('installing Chromium from Debian (apt-get)...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await runOrThrow('apt-get', ['update', '-qq'], { env });
  await runOrThrow('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'], { env });
  const installed = which('chromium');
  if (!installed) throw new Error('apt-get installed chromium but it is not on PATH');
  return installed;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${await ensureChromium()}\n`);
}
