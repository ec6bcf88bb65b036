// `npm run start:server` and `npm run start:worker` (scripts/start.mjs with a role), run as npm
// runs them: a role alone refuses to start without the deployment's master key, before it
// installs or builds anything, rather than generate a key no other process shares.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

function startRole(role: 'server' | 'worker', env: Record<string, string>) {
  // Only what the role reads: no MASTER_KEY or MASTER_KEY_FILE inherited from the test's shell.
  const shell = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('MASTER_KEY')));
  return spawnSync(process.execPath, [join(ROOT, 'scripts/start.mjs'), role], { cwd: ROOT, env: { ...shell, ...env }, encoding: 'utf8', timeout: 30_000 });
}

const shared = { DATABASE_URL: 'postgresql://purser@127.0.0.1:1/purser', TEMPORAL_ADDRESS: '127.0.0.1:1' };

describe('npm run start:server / start:worker', () => {
  it.each(['server', 'worker'] as const)('%s refuses to start without MASTER_KEY or MASTER_KEY_FILE, saying so, with a non-zero exit', (role) => {
    const started = startRole(role, shared);
    expect(started.status, started.stderr).toBe(1);
    expect(started.stderr).toContain(`npm run start:${role} needs the deployment's master key: set MASTER_KEY`);
    expect(started.stderr).toContain('MASTER_KEY_FILE');
    expect(started.stdout).toBe('');
  });
});
