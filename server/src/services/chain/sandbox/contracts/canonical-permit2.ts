/**
 * Uniswap's Permit2 for the sandbox chain: the runtime code deployed at its canonical address on
 * public chains, which x402's Permit2-based schemes (`upto`) sign for. npm has no artifact of it,
 * but Uniswap's v4-periphery package ships Permit2's own test helper, DeployPermit2.sol, which
 * etches that code at the canonical address from a `hex"..."` literal; the literal is read from
 * there, so the code is Uniswap's, byte for byte, and pinned by the package's version.
 *
 * Permit2 keeps the chain id it was deployed on in an immutable and rebuilds its EIP-712 domain
 * separator on any other chain, so the mainnet code serves chain 84532 as it is.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Hex } from 'viem';

const DEPLOY_PERMIT2_SOURCE = '@uniswap/v4-periphery/lib/permit2/test/utils/DeployPermit2.sol';

/** Permit2's runtime bytecode, from the one `hex"..."` literal of Uniswap's DeployPermit2.sol. */
export function canonicalPermit2Runtime(): Hex {
  const file = createRequire(import.meta.url).resolve(DEPLOY_PERMIT2_SOURCE);
  const literals = [...readFileSync(file, 'utf8').matchAll(/hex"([0-9a-fA-F]*)"/g)];
  if (literals.length !== 1 || !literals[0]![1]) {
    throw new Error(`Expected one hex"..." literal with Permit2's bytecode in ${file}, found ${literals.length}`);
  }
  return `0x${literals[0]![1].toLowerCase()}`;
}
