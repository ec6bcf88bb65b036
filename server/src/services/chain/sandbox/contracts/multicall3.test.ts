import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../../../../scripts/compile-contracts.mjs', import.meta.url));

it('has the bytecode and ABI that solc compiles from Multicall3.sol today', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [script, '--check']);
  expect(stdout).toContain('matches Multicall3.sol');
}, 60_000);
