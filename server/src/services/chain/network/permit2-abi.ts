/**
 * The parts of Uniswap's Permit2 the x402 `upto` rail uses: its unordered nonces (one bit per
 * nonce, 256 to a word), which tell whether an authorisation was used or invalidated, and the
 * owner's own invalidation of a nonce it signed.
 */
import { parseAbi } from 'viem';

export const permit2Abi = parseAbi([
  'function nonceBitmap(address owner, uint256 wordPosition) view returns (uint256)',
  'function invalidateUnorderedNonces(uint256 wordPosition, uint256 mask)',
  'event UnorderedNonceInvalidation(address indexed owner, uint256 word, uint256 mask)',
]);

/** Where a Permit2 nonce lives: its word in the owner's bitmap, and its bit in that word. */
export function permit2NonceSlot(nonce: bigint): { wordPosition: bigint; mask: bigint } {
  return { wordPosition: nonce >> 8n, mask: 1n << (nonce & 0xffn) };
}
