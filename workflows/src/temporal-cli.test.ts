// Resolution order of temporal-cli.mjs, with fake `temporal` scripts: no network,
// no Go, no real CLI.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureTemporalCli, TEMPORAL_CLI_VERSION, temporalCliCacheRoot } from './temporal-cli.mjs';

let dir: string;
const silent = () => {};

beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'purser-temporal-cli-test-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A shell script that answers `--version` like the real CLI. */
function fakeCli(path: string, version = TEMPORAL_CLI_VERSION): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, `#!/bin/sh\necho "temporal version ${version} (Server 1.29.1, UI 2.42.1)"\n`);
  chmodSync(path, 0o755);
  return path;
}

function environment({ pathDirs = [] as string[], temporalCli }: { pathDirs?: string[]; temporalCli?: string } = {}) {
  const emptyBin = join(dir, 'empty-bin');
  mkdirSync(emptyBin, { recursive: true });
  return { PATH: [...pathDirs, emptyBin].join(':'), XDG_CACHE_HOME: join(dir, 'cache'), HOME: dir, ...(temporalCli ? { TEMPORAL_CLI: temporalCli } : {}) };
}

describe('ensureTemporalCli', () => {
  it('prefers a temporal on PATH over TEMPORAL_CLI and the cache', async () => {
    const onPath = fakeCli(join(dir, 'bin', 'temporal'));
    const env = environment({ pathDirs: [join(dir, 'bin')], temporalCli: fakeCli(join(dir, 'explicit', 'temporal')) });
    fakeCli(join(temporalCliCacheRoot(env), `v${TEMPORAL_CLI_VERSION}`, 'temporal'));

    expect(await ensureTemporalCli({ env, log: silent })).toBe(onPath);
  });

  it('uses TEMPORAL_CLI when PATH has no temporal', async () => {
    const explicit = fakeCli(join(dir, 'explicit', 'temporal'), '0.9.0');
    const env = environment({ temporalCli: explicit });
    fakeCli(join(temporalCliCacheRoot(env), `v${TEMPORAL_CLI_VERSION}`, 'temporal'));

    expect(await ensureTemporalCli({ env, log: silent })).toBe(explicit);
  });

  it('refuses a TEMPORAL_CLI that does not run instead of silently using another binary', async () => {
    const env = environment({ temporalCli: join(dir, 'missing', 'temporal') });

    await expect(ensureTemporalCli({ env, log: silent })).rejects.toThrow(/TEMPORAL_CLI=.* is not a working temporal binary/);
  });

  it('uses the versioned cache when neither PATH nor TEMPORAL_CLI provide one', async () => {
    const env = environment();
    const cached = fakeCli(join(temporalCliCacheRoot(env), `v${TEMPORAL_CLI_VERSION}`, 'temporal'));

    expect(await ensureTemporalCli({ env, log: silent })).toBe(cached);
  });

  it('moves a binary that an earlier go install left at the cache root into the versioned folder', async () => {
    const env = environment();
    const unversioned = fakeCli(join(temporalCliCacheRoot(env), 'temporal'));

    const resolved = await ensureTemporalCli({ env, log: silent });

    expect(resolved).toBe(join(temporalCliCacheRoot(env), `v${TEMPORAL_CLI_VERSION}`, 'temporal'));
    expect(existsSync(resolved)).toBe(true);
    expect(existsSync(unversioned)).toBe(false);
    expect(await ensureTemporalCli({ env, log: silent })).toBe(resolved);
  });

  it('places the cache under XDG_CACHE_HOME, or ~/.cache without it', () => {
    expect(temporalCliCacheRoot({ XDG_CACHE_HOME: '/x/cache', HOME: '/home/u' })).toBe('/x/cache/purser/temporal-cli');
    expect(temporalCliCacheRoot({ HOME: '/home/u' })).toBe('/home/u/.cache/purser/temporal-cli');
  });
});
