import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { x402UptoPermit2ProxyABI } from '@x402/evm';
import type { Abi } from 'viem';
import { describe, expect, it } from 'vitest';
import { x402UptoPermit2ProxyAbi } from './x402-upto-permit2-proxy';

const script = fileURLToPath(new URL('../../../../../scripts/compile-contracts.mjs', import.meta.url));

/** An ABI as a set: entries in a fixed order, so two ABIs compare whatever order they list them in. */
const sorted = (abi: Abi) => [...abi].sort((a, b) => key(a).localeCompare(key(b)));
const key = (entry: Abi[number]) => `${entry.type}:${'name' in entry ? entry.name : ''}`;

describe('the x402 upto Permit2 proxy', () => {
  it('has the bytecode and ABI that solc compiles from X402UptoPermit2Proxy.sol today', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [script, '--check']);
    expect(stdout).toContain('matches X402UptoPermit2Proxy.sol');
  }, 60_000);

  it("has exactly the functions, events and errors of @x402/evm's x402UptoPermit2ProxyABI, down to the internal type names", () => {
    expect(sorted(x402UptoPermit2ProxyAbi)).toEqual(sorted(x402UptoPermit2ProxyABI as Abi));
  });
});
