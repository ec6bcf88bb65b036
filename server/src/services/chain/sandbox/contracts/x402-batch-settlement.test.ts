import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Abi, AbiParameter } from 'viem';
import { describe, expect, it } from 'vitest';
import { X402_PERMIT2_DEPOSIT_COLLECTOR_ADDRESS } from '../sandbox-contracts';
import { x402BatchSettlementAbi } from './x402-batch-settlement';

const script = fileURLToPath(new URL('../../../../../scripts/compile-contracts.mjs', import.meta.url));

/**
 * A value @x402/evm defines but does not export from its entry points (the batch-settlement ABI its
 * client, server and facilitator call with, the Permit2 collector's address): read from the
 * bundle chunk that exports it, found by name so a renamed chunk does not matter.
 */
async function x402EvmInternal(name: string): Promise<unknown> {
  const entry = createRequire(import.meta.url).resolve('@x402/evm');
  const esm = join(entry.slice(0, entry.lastIndexOf(`${join('dist', 'cjs')}`)), 'dist', 'esm');
  const chunk = readdirSync(esm).find((file) => file.endsWith('.mjs') && new RegExp(`^var ${name} = `, 'm').test(readFileSync(join(esm, file), 'utf8')));
  if (!chunk) throw new Error(`@x402/evm defines no ${name}`);
  const module = (await import(pathToFileURL(join(esm, chunk)).href)) as Record<string, unknown>;
  return module[name];
}

/** An ABI entry without Solidity's internal type names, which @x402/evm's ABI leaves out. */
function withoutInternalTypes<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutInternalTypes) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'internalType').map(([key, item]) => [key, withoutInternalTypes(item)])) as T;
}

const named = (abi: Abi, type: string) =>
  withoutInternalTypes(abi.filter((entry) => entry.type === type)).sort((a, b) => ('name' in a && 'name' in b ? a.name.localeCompare(b.name) : 0));

describe('the x402 batch-settlement contract and its deposit collectors', () => {
  it('have the bytecode and ABIs that solc compiles from their .sol files today', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [script, '--check']);
    expect(stdout).toContain('matches X402BatchSettlement.sol');
    expect(stdout).toContain('matches X402Erc3009DepositCollector.sol');
    expect(stdout).toContain('matches X402Permit2DepositCollector.sol');
  }, 60_000);

  it("has exactly the functions of @x402/evm's batchSettlementABI, with the same names, parameters and mutability", async () => {
    const official = (await x402EvmInternal('batchSettlementABI')) as Abi;
    expect(named(x402BatchSettlementAbi, 'function')).toEqual(named(official, 'function'));
  });

  it("emits @x402/evm's Settled event as it is declared there, beside events of its own for deposits, claims, refunds and withdrawals", async () => {
    const official = (await x402EvmInternal('batchSettlementABI')) as Abi;
    const ours = named(x402BatchSettlementAbi, 'event');
    for (const event of named(official, 'event')) expect(ours).toContainEqual(event);
    expect(ours.map((event) => ('name' in event ? event.name : ''))).toEqual([
      'ChannelClosed',
      'ChannelCreated',
      'Claimed',
      'Deposited',
      'Refunded',
      'Settled',
      'WithdrawInitiated',
      'Withdrawn',
    ]);
  });

  it('takes the channel config with the fields, in the order, that @x402/evm hashes into a channel id', () => {
    const getChannelId = x402BatchSettlementAbi.find((entry) => entry.type === 'function' && entry.name === 'getChannelId');
    const config = getChannelId?.inputs[0] as AbiParameter & { components: readonly AbiParameter[] };
    expect(config.components.map(({ name, type }) => `${type} ${name}`)).toEqual([
      'address payer',
      'address payerAuthorizer',
      'address receiver',
      'address receiverAuthorizer',
      'address token',
      'uint40 withdrawDelay',
      'bytes32 salt',
    ]);
  });

  it("is installed beside a Permit2 collector at the address @x402/evm's Permit2 deposits name", async () => {
    expect(await x402EvmInternal('PERMIT2_DEPOSIT_COLLECTOR_ADDRESS')).toBe(X402_PERMIT2_DEPOSIT_COLLECTOR_ADDRESS);
  });
});
